/* A compiled twin of tests/fake_smartctl.py for the timing benchmarks (bench/run.py compiles it with cc).
 *
 * Same contract: answers `smartctl ARGS` from FAKE_SMARTCTL_DIR/"smartctl <ARGS joined by spaces, / as _>.out"
 * (exit status from the matching .rc), appends the argv to FAKE_SMARTCTL_LOG, sleeps FAKE_SMARTCTL_SLEEP
 * seconds first; a call without a recording prints smartctl's open failure and exits 2.
 *
 * Why a second fake: starting a Python interpreter costs about 9 ms of CPU per call on the benchmark machine,
 * so 64 parallel fake calls measure the fake as much as ssdwear. This one costs what a fork+exec costs
 * (about 1 ms), which isolates ssdwear's own overhead: the parallelism of its reads.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

int main(int argc, char **argv) {
    char joined[8192] = "";
    size_t used = 0;
    for (int i = 1; i < argc; i++) {
        size_t n = strlen(argv[i]);
        if (used + n + 2 >= sizeof joined) return 1;
        if (i > 1) joined[used++] = ' ';
        memcpy(joined + used, argv[i], n);
        used += n;
        joined[used] = '\0';
    }
    const char *log = getenv("FAKE_SMARTCTL_LOG");
    if (log && *log) {
        int fd = open(log, O_WRONLY | O_APPEND | O_CREAT, 0644);
        if (fd >= 0) {
            char line[8200];
            int len = snprintf(line, sizeof line, "%s\n", joined);
            if (write(fd, line, (size_t)len) < 0) return 1;
            close(fd);
        }
    }
    const char *delay = getenv("FAKE_SMARTCTL_SLEEP");
    if (delay && *delay) {
        double s = atof(delay);
        if (s > 0) {
            struct timespec ts = {(time_t)s, (long)((s - (double)(time_t)s) * 1e9)};
            while (nanosleep(&ts, &ts) == -1 && errno == EINTR) {}
        }
    }
    const char *dir = getenv("FAKE_SMARTCTL_DIR");
    char stem[8400];
    snprintf(stem, sizeof stem, "%s/smartctl %s", dir ? dir : "", joined);
    for (char *p = stem + strlen(dir ? dir : "") + 1; *p; p++)
        if (*p == '/') *p = '_';
    char path[8500];
    snprintf(path, sizeof path, "%s.out", stem);
    int fd = open(path, O_RDONLY);
    if (fd < 0) {
        printf("smartctl 7.3 2022-02-28 r5338 [x86_64-linux] (local build)\n"
               "Smartctl open device: %s failed: No such device\n", argc > 1 ? argv[argc - 1] : "?");
        return 2;
    }
    char buf[65536];
    ssize_t n;
    while ((n = read(fd, buf, sizeof buf)) > 0)
        if (write(1, buf, (size_t)n) < 0) return 1;
    close(fd);
    snprintf(path, sizeof path, "%s.rc", stem);
    FILE *rc = fopen(path, "r");
    int status = 0;
    if (rc) {
        if (fscanf(rc, "%d", &status) != 1) status = 0;
        fclose(rc);
    }
    return status;
}
