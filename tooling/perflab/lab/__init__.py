"""The lab: the stack, the apps and their builds, load balancers, proxies, CPU limits, secrets, and the seam the runner reaches them through."""
