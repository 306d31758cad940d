# The checks every node of a job runs before the job's command (StartChecks builds the arguments). A node that fails
# one says which node it is, what was found and what was expected, and exits 86 without starting the command; when
# all pass, the command replaces this shell ("exec"), with its argv exactly as the workload gave it. A healthy node
# prints nothing, so that the job's output is its own; the fabric check prints the figure it measured.
# Arguments: GPUS VENDOR INFINIBAND FABRIC FLOOR_GBPS MESSAGE_BYTES ITERATIONS TIMEOUT_S SIZE SOURCE -- ARGV...
gpus=$1 vendor=$2 infiniband=$3 fabric=$4 floor=$5 message=$6 iterations=$7 wait_s=$8 size=$9
shift 9
source_text=$1
shift
[ "${1:-}" = -- ] && shift
node="$(hostname 2>/dev/null || echo unknown-host) (rank ${RANK:-0})"
GANTRY_PY='@FABRIC_PY@'
GANTRY_AWK='@ALL_REDUCE_PERF_AWK@'

# A wedged GPU can make nvidia-smi hang: bound it as the doctor's probe does.
tool() {
  if command -v timeout >/dev/null 2>&1; then timeout 30 "$@"; else "$@"; fi
}

node_failed() {
  printf "gantry node check FAILED on %s: %s\n" "$node" "$1" >&2
  echo "gantry: the job's command did not start; the attempt fails here, before training" >&2
  exit 86
}

if [ "$gpus" -gt 0 ] && [ "$vendor" = nvidia ]; then
  command -v nvidia-smi >/dev/null 2>&1 || node_failed "gpu.driver: nvidia-smi is not installed, so no NVIDIA driver is usable here (needed for $gpus GPU(s)); use the HPC image the plan names, or install the driver"
  listed=$(tool nvidia-smi --query-gpu=index --format=csv,noheader 2>&1) || node_failed "gpu.driver: nvidia-smi failed: $(printf "%s" "$listed" | tail -n 3 | tr "\n" " ")(the driver is not loaded or a GPU fell off the bus); restart the VM or redeploy it to another host"
  found=$(printf "%s\n" "$listed" | grep -c "^ *[0-9]")
  [ "$found" -ge "$gpus" ] || node_failed "gpu.count: found $found NVIDIA GPU(s), needed $gpus; a GPU missing from nvidia-smi needs the VM restarted or redeployed to another host"
  # Memory errors, where the driver reports them, failing as Microsoft's node health check does (check_gpu_ecc in
  # Azure/azurehpc-health-checks): an uncorrectable SRAM ECC error since the driver loaded, or a row remapping that is
  # pending (it needs a GPU reset) or has failed (the GPU needs replacing). Drivers and GPUs without these queries
  # (before Ampere) report nothing here.
  sram=$(tool nvidia-smi --query-gpu=index,ecc.errors.uncorrected.volatile.sram --format=csv,noheader 2>/dev/null)
  sram_ok=$?
  rows=$(tool nvidia-smi --query-remapped-rows=remapped_rows.pending,remapped_rows.failure --format=csv,noheader 2>/dev/null)
  rows_ok=$?
  bad=""
  [ "$sram_ok" != 0 ] || bad=$(printf "%s\n" "$sram" | awk -F", *" '
    $2 ~ /^[0-9]+$/ && $2 > 0 { printf "GPU %s has %s uncorrectable SRAM ECC error(s); ", $1, $2 }')
  [ "$rows_ok" != 0 ] || bad="$bad$(printf "%s\n" "$rows" | awk -F", *" '
    $1 == "Yes" || $1 ~ /^[1-9][0-9]*$/ { printf "GPU %d has a row remapping pending (reset the GPU or restart the VM); ", NR - 1 }
    $2 == "Yes" || $2 ~ /^[1-9][0-9]*$/ { printf "GPU %d failed a row remapping (the GPU needs replacing: redeploy the VM); ", NR - 1 }')"
  [ -z "$bad" ] || node_failed "gpu.memory: ${bad% }"
elif [ "$gpus" -gt 0 ] && [ "$vendor" = amd ]; then
  command -v rocm-smi >/dev/null 2>&1 || node_failed "gpu.driver: rocm-smi is not installed, so no AMD driver is usable here (needed for $gpus GPU(s)); use the HPC image the plan names, or install ROCm"
  out=$(tool rocm-smi --showid 2>&1) || node_failed "gpu.driver: rocm-smi failed: $(printf "%s" "$out" | tail -n 3 | tr "\n" " ")"
fi
if [ "$infiniband" = 1 ]; then
  active=0
  seen=""
  for port in /sys/class/infiniband/*/ports/*; do
    [ -r "$port/state" ] || continue
    state=$(cat "$port/state")
    layer=$(cat "$port/link_layer" 2>/dev/null)
    device=${port%/ports/*}
    seen="$seen ${device##*/} port ${port##*/} ${state#*: } $layer;"
    case "$state" in
      *ACTIVE*) [ "$layer" = InfiniBand ] && active=$((active + 1)) ;;
    esac
  done
  [ "$active" -gt 0 ] || node_failed "infiniband: no InfiniBand port is ACTIVE (found:${seen:- no RDMA device};) on an RDMA size; use the HPC image the plan names, or restart the VM; ibv_devinfo must show PORT_ACTIVE with link layer InfiniBand"
fi

fabric_failed() {
  printf "gantry fabric check FAILED on %s: %s\n" "$node" "$1" >&2
  echo "gantry: the job's command did not start; the attempt fails here, before training" >&2
  exit 86
}

if [ "$fabric" = 1 ]; then
  if command -v all_reduce_perf >/dev/null 2>&1 && [ -n "${OMPI_COMM_WORLD_SIZE:-}${PMI_SIZE:-}${PMIX_RANK:-}" ]; then
    how="nccl-tests all_reduce_perf"
    out=$(all_reduce_perf -b "$message" -e "$message" -f 2 -g 1 -w 1 -n "$iterations" 2>&1) || fabric_failed "all_reduce_perf failed: $(printf "%s" "$out" | tail -n 5 | tr "\n" " ")"
    parsed=$(printf "%s\n" "$out" | awk "$GANTRY_AWK") || fabric_failed "all_reduce_perf printed no result row: $(printf "%s" "$out" | tail -n 5 | tr "\n" " ")"
  elif command -v python3 >/dev/null 2>&1 && python3 -c "import torch.distributed" >/dev/null 2>&1; then
    out=$(python3 -c "$GANTRY_PY" "$message" "$iterations" "$wait_s" 2>&1) || fabric_failed "the all-reduce between the $WORLD_SIZE nodes did not complete within ${wait_s}s: $(printf "%s" "$out" | tail -n 3 | tr "\n" " ")(a node that failed its node check, a blocked port $MASTER_PORT on $MASTER_ADDR, or the NCCL environment)"
    parsed=$(printf "%s\n" "$out" | grep "^busbw " | tail -n 1)
    how="torch.distributed ${parsed##* }"
  else
    fabric_failed "it needs nccl-tests' all_reduce_perf under an MPI launcher, or python3 with torch, where the job runs, and found neither; add one to the image, or set fabricCheck: false"
  fi
  measured=${parsed#busbw }
  measured=${measured%% *}
  summary="all-reduce bus bandwidth $measured GB/s, expected at least $floor GB/s for $size ($source_text); $message bytes, $WORLD_SIZE nodes, $how"
  if awk -v m="$measured" -v e="$floor" 'BEGIN { exit !(m + 0 >= e + 0) }'; then
    printf "gantry fabric check: passed on %s: %s\n" "$node" "$summary" >&2
  else
    fabric_failed "$summary. Likely causes: InfiniBand ports down (ibv_devinfo shows no PORT_ACTIVE); VMs outside one placement group (a scale set with a single placement group, or one availability set); the NCCL environment (NCCL_IB_HCA, NCCL_TOPO_FILE, NCCL_SOCKET_IFNAME; NCCL_DEBUG=INFO shows NET/IB when InfiniBand is used, NET/Socket when it is not)"
  fi
fi
exec "$@"
