"""The resident checker: one warm process per user and installation that answers `simu` commands.

A `simu` command costs a new process most of a second before its first instruction runs (Python, numpy,
llvmlite, typer and simu's own modules), more than a small launch's whole analysis.  `simu serve` keeps one
process with those imported; a `simu` command finds its socket (``address``), hands it the command line, the
folder, the environment and its own standard streams (``client``), and the server forks a worker that becomes that
command — same streams, folder, environment and exit status — and runs it (``server``, ``worker``).  A fork per
command keeps commands apart: nothing one leaves behind reaches the next.  The client is standard library only,
so it costs a bare Python start; without a server, or with one running other code, the command runs in its own
process exactly as before.
"""
