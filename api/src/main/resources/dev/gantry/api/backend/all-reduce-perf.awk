# Reads the output of all_reduce_perf (nccl-tests) and prints "busbw GBPS bytes SIZE" for its largest message: the out-of-place
# bus bandwidth, column 8 of a row with the root column (nccl-tests 2.10 and later) and column 7 of one without.
# Lines srun -l prefixes with "RANK: " are read without it; comment lines start with "#". No row: exit 1.
{ sub(/^[ \t]*[0-9]+:[ \t]*/, "") }
/^[ \t]*#/ { next }
$1 ~ /^[0-9]+$/ && $2 ~ /^[0-9]+$/ && NF >= 12 { bus = (NF >= 13 ? $8 : $7); size = $1 }
END { if (size == "") exit 1; printf "busbw %s bytes %s\n", bus, size }
