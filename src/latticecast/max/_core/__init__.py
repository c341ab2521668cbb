"""MAX's ``max._core`` (its compiled core) as far as MAX code reaches into it: ``dialects`` (the MLIR attribute
and type constructors, over jaxlib's MLIR and latticecast's encodings of MAX's concepts) and ``safetensors``
(``safe_open``, over the ``safetensors`` package).

Example:
    >>> from latticecast.max._core.dialects import builtin
    >>> str(builtin.IntegerAttr(builtin.IntegerType(64, builtin.SignednessSemantics.signed), 5))
    '5 : si64'
"""
