#$ -N gantry-fit
#$ -r n
#$ -o /shared/gantry/jobs/job-fit/gridengine-$JOB_ID.out
#$ -e /shared/gantry/jobs/job-fit/gridengine-$JOB_ID.err
#$ -wd /shared/gantry/jobs/job-fit
#$ -S /bin/bash
