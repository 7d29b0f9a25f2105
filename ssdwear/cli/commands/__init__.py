"""The CLI's commands, by what they are for; each module lists its commands in COMMANDS (made with app.command), and
cli/main.py puts them on the group."""
