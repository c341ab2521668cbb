# Shortcuts for dev.py, which needs only Python and pip.
.PHONY: demo test bench
demo:
	python3 dev.py demo
test:
	python3 dev.py test
bench:
	python3 dev.py bench
