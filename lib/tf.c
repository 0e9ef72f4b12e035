/* tf.c - JF201 and JF202: TensorFlow 1.x graph-mode API misuse */
#include "checks.h"

void jf_hook_tf_variable_scope(jf_ctx *ctx, const jf_rule *rule, const jf_unit *unit,
                               const jf_match *m)
{
	(void)ctx;
	(void)rule;
	(void)unit;
	(void)m;
}

void jf_hook_tf_session_run(jf_ctx *ctx, const jf_rule *rule, const jf_unit *unit,
                            const jf_match *m)
{
	(void)ctx;
	(void)rule;
	(void)unit;
	(void)m;
}
