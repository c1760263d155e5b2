#!/bin/bash
# sagemaker-hetero's driver, started on every host by the job's ContainerArguments
# (chmod +x /opt/ml/input/data/sm_drivers/sm_train.sh && /opt/ml/input/data/sm_drivers/sm_train.sh).
# Bash and the container's Python only. SAGEMAKER_BASE_DIR moves /opt/ml (a local run's host folder).
set -e
SM_BASE_DIR="${SAGEMAKER_BASE_DIR:-/opt/ml}"
SM_PYTHON_CMD=$(command -v python3 || command -v python || true)
if [ -z "$SM_PYTHON_CMD" ]; then
    echo "sagemaker-hetero driver: expected python3 or python on PATH, got none (PATH=$PATH)" >&2
    if [ ! -s "$SM_BASE_DIR/output/failure" ]; then
        echo "The image has no python3 or python on its PATH: the driver needs one." >> "$SM_BASE_DIR/output/failure"
    fi
    exit 1
fi
echo "sagemaker-hetero driver on $(hostname) with $("$SM_PYTHON_CMD" --version 2>&1)"
exec "$SM_PYTHON_CMD" "$SM_BASE_DIR/input/data/sm_drivers/sm_driver.py"
