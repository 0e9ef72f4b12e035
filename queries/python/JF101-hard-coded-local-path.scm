; id: JF101
; name: hard-coded-local-path
; severity: error
; category: Path Not Found
; summary: a path on the developer's machine (/home/<user>, /Users, C:\, ~/, /mnt/c) where the job reads or writes files
; message: developer-machine path '{{finding}}' does not exist in the job's container
; help: pass the path as an argument or environment variable, and point it at a mount declared in the job's inputs or outputs
; check: local-path
; prefilter: ["'](?:/home/|/Users/|/Volumes/|/media/|~/|[A-Za-z]:[\\/]|/mnt/[a-z]/)
;
; String literals that start with a developer-machine path: /home/<user>,
; /Users/<user>, /Volumes, /media/<user>, ~/ (not ~/.cache and the like),
; C:\ or C:/, /mnt/<drive>/ (WSL). The hook keeps those used as paths:
; arguments of file and folder I/O calls (also "..." + x and "...".format(x)),
; path-like keyword arguments, argparse defaults, sys.path edits. Comments,
; docstrings, print/log messages and help texts are not such uses. (One small
; pattern and a check of the parents in C compile many times faster than the
; same uses spelled out as patterns.)

((string) @finding
  (#match? @finding "^[rRbBuUfF]{0,2}(\"\"\"|'''|\"|')(/home/[a-z_][^/'\"A-Z]*(/|['\"])|/Users/[^/'\"]+|/Volumes/|/media/[^/'\"]+/|~/[^.]|[A-Za-z]:[\\\\/]|/mnt/[a-z]/)"))
