"""What the tests share: where things are (paths), the one clock (clock), the one way to run the CLI (cli),
Snapshot builders (builders), the fake smartctl (fake_smartctl), the external tools some tests need (tools),
and readers of the history database the product does not need (store)."""
