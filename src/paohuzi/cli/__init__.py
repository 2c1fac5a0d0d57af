"""Command-line interface: ``paohuzi <command>`` (INTERFACES.md)."""
