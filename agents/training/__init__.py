"""Training a MaskablePPO policy for any registered game: self-play against an opponent league.

Modules: ``config`` (the YAML config, validated strictly), ``imitation`` (behaviour cloning of a
teacher bot before PPO), ``profile`` (``--profile``: where the time goes), ``league`` (bots and
frozen snapshots in the opponents' seats, drawn per game), ``callbacks`` (league refresh, arena
evaluation, checkpoints, Ctrl-C, timing), ``checkpoint`` (the run directory), ``games`` (the
training games as a record a resume replays), ``train`` (``train(config, resume=...)``) and
``evaluate`` (``evaluate_model``: a saved model in the arena). Needs the ``train`` extra (torch,
stable-baselines3, sb3-contrib).
"""
