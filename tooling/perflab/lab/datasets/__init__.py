"""The data sets: the wallet and route loaders, their templates and clones, and the probes of their locks."""
