; id: JF101
; name: hard-coded-local-path
; severity: error
; category: Path Not Found
; summary: a path on the developer's machine (/home/<user>, /Users, C:\, ~/, /mnt/c) where the job reads or writes files
; message: developer-machine path '{{finding}}' does not exist in the job's container
; help: pass the path as an argument or environment variable, and point it at a mount declared in the job's inputs or outputs
; check: local-path
;
; The string literals used as paths: arguments of file and folder I/O calls,
; sys.path edits, argparse defaults. The same strings in comments, docstrings,
; print/log calls and help texts are not matched.

; A developer-machine path literal (after an optional prefix and the quote).
; /home/<user>, /Users/<user>, /Volumes, /media/<user>, ~/ (not ~/.cache-like),
; C:\ or C:/, /mnt/<drive>/ (WSL).

; Positional arguments of I/O calls, also "..." + x and "...".format(x).
(call
  function: [(identifier) (attribute)] @fn
  arguments: (argument_list
    [(string) @finding
     (binary_operator left: (string) @finding)
     (call function: (attribute object: (string) @finding attribute: (identifier) @_fmt))])
  (#match? @fn "(^|\\.)(open|load|save|savez|savez_compressed|loadtxt|savetxt|genfromtxt|fromfile|tofile|memmap|read_csv|read_json|read_parquet|read_pickle|read_excel|read_table|read_hdf|read_feather|to_csv|to_json|to_parquet|to_pickle|to_excel|to_hdf|to_feather|imread|imwrite|imsave|savefig|VideoCapture|VideoWriter|File|GFile|Open|TFRecordDataset|TFRecordWriter|read_file|write_file|load_model|save_model|load_weights|save_weights|from_pretrained|save_pretrained|ImageFolder|DatasetFolder|FileHandler|SummaryWriter|FileWriter|ZipFile|copy|copy2|copyfile|copytree|move|rmtree|listdir|makedirs|mkdir|chdir|remove|unlink|rename|replace|walk|scandir|join|abspath|expanduser|realpath|normpath|glob|iglob|Path|PurePath|PosixPath|getenv|get|append|insert|LMDBDataset|LoadImage)$")
  (#not-match? @fn "^(print|logging\\.\\w+|logger\\.\\w+|log\\.\\w+|warnings\\.warn)$")
  (#not-match? @fn "^(re|str|self\\.\\w+|\\w+\\.(split|strip|startswith|endswith|format|replace))\\.")
  (#match? @finding "^[rRbBuUfF]{0,2}(\"\"\"|'''|\"|')(/home/[^/'\"]+(/|['\"])|/Users/[^/'\"]+|/Volumes/|/media/[^/'\"]+/|~/[^.]|[A-Za-z]:[\\\\/]|/mnt/[a-z]/)"))

; Path-like keyword arguments of any call, and argparse defaults.
(call
  arguments: (argument_list
    (keyword_argument
      name: (identifier) @kw
      value: [(string) @finding (binary_operator left: (string) @finding)]))
  (#match? @kw "^(default|path|root|root_dir|data_dir|data_root|dataset_dir|fname|filename|file|filepath|file_path|save_dir|save_path|log_dir|logdir|output_dir|out_dir|model_dir|cache_dir|checkpoint|checkpoint_dir|ckpt|ckpt_path|pretrained_model_name_or_path|directory|dir|src|dst|path_or_buf)$")
  (#match? @finding "^[rRbBuUfF]{0,2}(\"\"\"|'''|\"|')(/home/[^/'\"]+(/|['\"])|/Users/[^/'\"]+|/Volumes/|/media/[^/'\"]+/|~/[^.]|[A-Za-z]:[\\\\/]|/mnt/[a-z]/)"))
