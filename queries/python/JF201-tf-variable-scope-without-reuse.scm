; id: JF201
; name: tf-variable-scope-without-reuse
; severity: error
; category: Framework API Misuse
; summary: a `tf.variable_scope` without `reuse` that a loop enters again and that creates variables (TF1)
; message: variable scope '{{name}}' is entered on every loop iteration without 'reuse': the second iteration fails with "Variable ... already exists"
; help: pass `reuse=tf.AUTO_REUSE` to the scope, or call `tf.get_variable_scope().reuse_variables()` after the first tower; give the scope a name per iteration if each one needs its own variables
; check: tf-variable-scope
; prefilter: variable_scope
;
; Every `with tf.variable_scope(<first argument>)`, also tf.compat.v1; the
; hook keeps the scopes with a constant name and no `reuse` that a loop
; enters again (directly, or through a call of the function holding the
; `with`) and under which variables are created.

(with_item
  value: [
    (call
      function: (_) @fn
      arguments: (argument_list . (_) @name)) @scope
    (as_pattern
      (call
        function: (_) @fn
        arguments: (argument_list . (_) @name)) @scope)
  ]
  (#match? @fn "^(((tf|tensorflow)(\\.compat\\.v1)?)\\.)?variable_scope$"))
