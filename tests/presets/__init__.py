"""Tests of the rule presets (PRESETS.md): hunan, changde, luzhou."""
