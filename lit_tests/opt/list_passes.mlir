// --list-passes lists latticecast's passes with their options and the policies;
// --help names them too.
// RUN: latticecast-opt --list-passes | FileCheck %s
// RUN: latticecast-opt --help | FileCheck %s --check-prefix=HELP

// CHECK:      Passes of latticecast
// CHECK-NEXT:   --implicit-cast: Join operand types
// CHECK-NEXT:       options: policy=<name>, diagnose-lossy=off|remark|warning|error, lower-dtypes=true|false, policy-file=<path>
// CHECK-NEXT:   --lower-dtypes:
// CHECK-NEXT: Policies ({{.*}}): jax, jax-x32, {{.*}}torch, tensorflow

// HELP: --list-passes
// HELP: latticecast's passes: implicit-cast (policy=<name>,
// HELP: Policies: jax, jax-x32,
