# /etc/cron.d/ssdwear: the hourly wear sample where systemd is not running (a container, sysvinit). With
# systemd, the ssdwear-sample.timer does it and this line does nothing (as e2fsprogs' e2scrub_all does).
# cron mails stderr when a drive could not be read. After `apt-get remove ssdwear` this conffile stays and runs
# nothing (Debian policy 9.5: a cron job checks that its program is still there).
17 * * * *  root  [ -x /usr/bin/ssdwear ] && [ ! -d /run/systemd/system ] && /usr/bin/ssdwear sample
