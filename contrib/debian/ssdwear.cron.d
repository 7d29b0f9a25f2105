# /etc/cron.d/ssdwear: the hourly wear sample where systemd is not running (a container, sysvinit). With
# systemd, the ssdwear-sample.timer does it and this line does nothing (as e2fsprogs' e2scrub_all does).
# cron mails stderr when a drive could not be read.
17 * * * *  root  test -d /run/systemd/system || /usr/bin/ssdwear sample
