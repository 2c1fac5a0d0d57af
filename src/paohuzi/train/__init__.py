"""训练 (xùnliàn): Deep Monte-Carlo training of the ``neural`` bot.

Only :mod:`.model`, :mod:`.learner` and :mod:`.cli` need torch (the ``train``
extra); :mod:`.features` and :mod:`.actor` are numpy-only, so the bot and the
self-play actors run without it.
"""
