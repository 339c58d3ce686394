"""Host code read through clang's AST (see :mod:`simu.host.ast.facts`): CUDA launches with the values the program
passes them, across functions and files.  The lexical reader of :mod:`simu.host` stays the fallback for what this
does not know."""
