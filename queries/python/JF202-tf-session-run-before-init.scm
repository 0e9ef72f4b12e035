; id: JF202
; name: tf-session-run-before-init
; severity: error
; category: Framework API Misuse
; summary: the first `sess.run` of a TF1 session before any variable initialiser or checkpoint restore
; message: session '{{sess}}' runs before its variables are initialised or restored: the first run fails with "FailedPreconditionError: Attempting to use uninitialized value ..."
; help: run `sess.run(tf.global_variables_initializer())` (or restore a checkpoint with `saver.restore(sess, path)`) before the first run, or let `tf.train.MonitoredTrainingSession` do it
; check: tf-session-run
; prefilter: Session
;
; Every `<name>.run(...)`; the hook keeps the first run of a tf.Session or
; tf.InteractiveSession created in the same function (or at module level)
; when nothing in between initialises or restores variables and the job's
; Python files create some.

(call
  function: (attribute
    object: (identifier) @sess
    attribute: (identifier) @_method)
  (#eq? @_method "run")) @run
