"""The CLI's commands, by what they are for; each module registers its commands on ssdwear.cli.cli."""
