; id: JF305
; name: bool-type-argument
; severity: warning
; category: Type Mismatch
; summary: an argparse argument with `type=bool`: any non-empty string, "False" included, is True
; message: 'type=bool' reads every non-empty value as True, 'False' and '0' included
; help: use `action='store_true'` (or a function that parses yes/no strings, e.g. `lambda s: s.lower() in ('1', 'true', 'yes')`) instead of `type=bool`
; check: bool-type
; prefilter: type\s*=\s*bool\b
;
; `parser.add_argument(..., type=bool)`, and the same on argument groups. The
; hook drops the calls whose `action=` never applies the type
; (argparse.BooleanOptionalAction, store_true, a class of the code's own).

(call
  function: (attribute attribute: (identifier) @_method)
  arguments: (argument_list
    (keyword_argument
      name: (identifier) @_key
      value: (identifier) @_value) @finding)
  (#eq? @_method "add_argument")
  (#eq? @_key "type")
  (#eq? @_value "bool"))
