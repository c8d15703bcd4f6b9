"""Operations: the metrics and health of a running bot (docs/metrics.md).

* :mod:`bot.ops.observer`: what the cogs report every interaction and incident to (standard
  library only, so a bot without metrics pays one no-op call);
* :mod:`bot.ops.metrics`: the Prometheus metrics of one bot, in a registry of its own (tests run
  several bots in one process), and the collectors that read the rest when scraped;
* :mod:`bot.ops.server`: ``/metrics`` and ``/health`` over HTTP (aiohttp), in the bot's event
  loop, and the listening socket bound before the bot starts.

It reads the database through ``bot.storage`` (timings, pool use, a few bounded counts) and the
shards through discord.py; nothing here changes the game.
"""
