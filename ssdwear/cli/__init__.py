"""The command line, and the only importer of click: app.py is the frame (the group, its global options, the helpers
every command uses, errors -> exit codes), commands/ the commands by purpose, completion.py the shell completion
scripts read from the command tree; main.py puts the commands on the group and is the console script."""
