"""训练 (xùnliàn): Deep Monte-Carlo training of the ``neural`` bot.

Only :mod:`.model`, :mod:`.learner` and :mod:`.offline` need torch (the
``train`` extra); :mod:`.actor` and :mod:`.evaluate` are numpy-only, like the
features they record (:mod:`paohuzi.encoding.features`), so the bot and the
self-play actors run without it.
"""
