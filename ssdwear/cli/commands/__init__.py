"""The CLI's commands, by what they are for; each module registers its commands on the group of cli/app.py
(cli/main.py imports them all)."""
