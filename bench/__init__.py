"""`make bench`: throughput figures, each next to a baseline measured in the same run."""
