# Sourced by run_instance.sh and prepare_instance.sh: read_models ONNX sets the arrays names and
# paths from the <onnx> argument, a path (names=("")) or, for a query over several networks,
# VNN-COMP 2026's Python list literal "[('f', 'onnx/a.onnx'), ('g', 'onnx/b.onnx')]". Returns 1
# when a list cannot be read whole.
read_models() {
    names=()
    paths=()
    case "$1" in
        \[*) ;;
        *) names=("")
           paths=("$1")
           return 0 ;;
    esac
    local rest=$1 q="['\"]" s="[[:space:]]*"
    local re="^[^(]*[(]$s$q([A-Za-z][A-Za-z0-9_]*)$q$s,$s$q([^'\"]+)$q$s[)](.*)$"
    while [[ $rest =~ $re ]]; do
        names+=("${BASH_REMATCH[1]}")
        paths+=("${BASH_REMATCH[2]}")
        rest=${BASH_REMATCH[3]}
    done
    [ "${#paths[@]}" -gt 0 ] && [[ $rest =~ ^[[:space:]]*[]][[:space:]]*$ ]]
}
