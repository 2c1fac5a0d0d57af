"""编码 (biānmǎ): a seat's view as numbers, for learning programs.

- :mod:`paohuzi.encoding.observation`: the observation vector of a seat's view
  (and its log), as the RL environments give it;
- :mod:`paohuzi.encoding.features`: the ``neural`` bot's inputs — the state
  vector and one row per legal action (:data:`~paohuzi.encoding.features.FEATURE_VERSION`).

The layer between the engine and everything that learns or plays from
numbers: it imports only :mod:`paohuzi.core` and numpy, and does no I/O.
"""
