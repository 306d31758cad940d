#$ -N gantry-train-7
#$ -q all.q
#$ -P ml-team
#$ -pe smp 2
#$ -l h_rt=30:00:00
#$ -l h_vmem=4096M
#$ -l gpu=2
#$ -l exclusive=true
#$ -hold_jid 41,42
#$ -r y
#$ -o /home/gantryqa/jobs/train-7/gridengine-$JOB_ID.out
#$ -e /home/gantryqa/jobs/train-7/gridengine-$JOB_ID.err
#$ -wd /home/gantryqa/jobs/train-7
#$ -S /bin/bash
