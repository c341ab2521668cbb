// A pipeline that does not parse, an unknown pass, a bad option of implicit-cast
// or of an upstream pass, an unknown policy: one line on stderr, exit code 1, no
// traceback, nothing on stdout.
// RUN: not latticecast-opt %s --pass-pipeline='builtin.module(no-such-pass)' 2>&1 | FileCheck %s --check-prefix=UNKNOWN
// RUN: not latticecast-opt %s --no-such-pass 2>&1 | FileCheck %s --check-prefix=UNKNOWN
// UNKNOWN: latticecast-opt: error: invalid pass pipeline {{.*}}'no-such-pass' does not refer to a registered pass or pass pipeline
// UNKNOWN-EMPTY:
// RUN: not latticecast-opt %s --pass-pipeline='builtin.module(implicit-cast{policy=max' 2>&1 | FileCheck %s --check-prefix=UNBALANCED
// UNBALANCED: latticecast-opt: error: invalid pass pipeline {{.*}}unbalanced
// UNBALANCED-EMPTY:
// RUN: not latticecast-opt %s --pass-pipeline='builtin.module(implicit-cast{colour=red})' 2>&1 | FileCheck %s --check-prefix=OPTION
// OPTION: latticecast-opt: error: invalid pass pipeline {{.*}}implicit-cast has no option 'colour'; its options are policy=<name>, diagnose-lossy=off|remark|warning|error, lower-dtypes=true|false
// OPTION-EMPTY:
// RUN: not latticecast-opt %s --implicit-cast --diagnose-lossy=loud 2>&1 | FileCheck %s --check-prefix=LEVEL
// LEVEL: latticecast-opt: error: --diagnose-lossy loud: diagnose-lossy must be one of off, remark, warning, error, not 'loud'
// RUN: not latticecast-opt %s --pass-pipeline='builtin.module(canonicalize{no-such-option=1})' 2>&1 | FileCheck %s --check-prefix=UPSTREAM
// UPSTREAM: latticecast-opt: error: invalid pass pipeline {{.*}}no such option no-such-option
// UPSTREAM-EMPTY:
// RUN: not latticecast-opt %s --implicit-cast --policy jaxx 2>&1 | FileCheck %s --check-prefix=POLICY
// RUN: not latticecast-opt %s --pass-pipeline='builtin.module(implicit-cast{policy=jaxx})' 2>&1 | FileCheck %s --check-prefix=POLICY
// POLICY: latticecast-opt: error: {{.*}}unknown policy 'jaxx'; the policies are: jax, jax-x32, jax-strict, jax-lax, max, max-python, array-api, array-api-proposal, anvil, numpy, torch, tensorflow
// POLICY-EMPTY:
// A bad pipeline is reported before the input is read: even a missing input.
// RUN: not latticecast-opt %t.does-not-exist.mlir --no-such-pass 2>&1 | FileCheck %s --check-prefix=UNKNOWN
// Nothing reaches stdout.
// RUN: not latticecast-opt %s --no-such-pass 2>/dev/null | FileCheck %s --check-prefix=NOTHING --allow-empty
// NOTHING-NOT: {{.}}

func.func @f(%a: tensor<4xf32>) -> tensor<4xf32> {
  return %a : tensor<4xf32>
}
