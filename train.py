import argparse
import numpy as np
import tensorflow as tf
from tensorflow.contrib import layers

p = argparse.ArgumentParser()
p.add_argument("--steps", type=int)
args = p.parse_args()

x = tf.placeholder(tf.float32, [None, 3])
w = tf.get_variable("w", [3, 1])
opt = tf.train.AdamOptimizer(0.1)
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    for _ in range(args.steps):
        sess.run(opt.minimize(tf.reduce_sum(x @ w)))
y = np.zeros(3, dtype=np.float)
if hasattr(tf, "Session"):
    tf.Session()
