; facts.scm - facts the C side reads from Python files (capture names are the fact names)

; import a.b / import a.b as c
(import_statement name: (dotted_name) @import.module)
(import_statement name: (aliased_import name: (dotted_name) @import.module))

; from a.b import c / from . import c / from .m import c as d
(import_from_statement
  module_name: [(dotted_name) (relative_import)] @import.from
  name: [(dotted_name) (aliased_import name: (dotted_name))] @import.name)
(import_from_statement
  module_name: [(dotted_name) (relative_import)] @import.from
  (wildcard_import))
