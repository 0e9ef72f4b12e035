; id: JF101
; name: hard-coded-local-path
; severity: error
; category: Path Not Found
; summary: a path on the developer's machine (/home/<user>, /Users, C:\, ~/, /mnt/c) where the job reads or writes files
; message: developer-machine path '{{finding}}' does not exist in the job's container
; help: pass the path as an argument or environment variable, and point it at a mount declared in the job's inputs or outputs
; check: local-path
; prefilter: /home/|/Users/|/Volumes/|/media/|~/|[A-Za-z]:[\\/]|/mnt/[a-z]/
;
; Shell words that hold a developer-machine path (also `--flag=/home/...`).
; The hook keeps those used as paths: command arguments (not of echo, printf
; and the like), assignments, redirections, cd. Comments and heredocs are not
; words.

([(word) (string) (raw_string) (concatenation)] @finding
  (#match? @finding "^([\"']?|[^=\"' ]*=[\"']?)(/home/[a-z_][^/'\"A-Z]*(/|['\"]|$)|/Users/[^/'\"]+|/Volumes/|/media/[^/'\"]+/|[A-Za-z]:[\\\\/]|/mnt/[a-z]/)"))
