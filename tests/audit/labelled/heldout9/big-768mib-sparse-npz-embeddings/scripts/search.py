import sys
import numpy as np
d = np.load("data/embeddings.npz")
vecs, titles = d["vectors"], d["titles"]
q = np.random.default_rng(0).standard_normal(vecs.shape[1])  # placeholder for the query model
scores = vecs @ q / (np.linalg.norm(vecs, axis=1) * np.linalg.norm(q))
for i in np.argsort(-scores)[:5]:
    print(f"{scores[i]:.3f} {titles[i]}")
