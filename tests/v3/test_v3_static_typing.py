"""Static checkers see ModelTrainer's and the v3 configurations' real keyword-only signatures: mypy flags
a misspelt keyword, and a positional argument, as SDK v3's pydantic models refuse them at run time."""
import os
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

USER_CODE = '''\
from sagemaker_hetero.train.model_trainer import ModelTrainer
from sagemaker_hetero.train.distributed import Torchrun
from sagemaker_hetero.core.training.configs import Compute, InstanceGroup, SourceCode

compute = Compute(instance_groups=[InstanceGroup(instance_group_name="gpu", instance_type="ml.g5.xlarge",
                                                 instance_count=1)])
ModelTrainer(training_image="img", compute=compute, source_code=SourceCode(source_dir="src", entry_script="t.py"),
             distributed=Torchrun(instance_group_names=["gpu"]))
ModelTrainer(training_image="img", compute=compute, hyperparamters={})
Compute(instance_type="ml.c5.xlarge", instance_cont=1)
Torchrun(process_count_per_nodes=2)
SourceCode("src")
'''
CONFIG = '''\
[mypy]
follow_imports = skip
ignore_missing_imports = True
[mypy-sagemaker_hetero.train.model_trainer,sagemaker_hetero.train.distributed,sagemaker_hetero.core.training.configs]
follow_imports = silent
'''


def test_mypy_flags_a_misspelt_keyword_of_the_v3_api(tmp_path):
    (tmp_path / "user_code.py").write_text(USER_CODE)
    (tmp_path / "mypy.ini").write_text(CONFIG)
    result = subprocess.run(
        [sys.executable, "-m", "mypy", "--config-file", "mypy.ini", "--cache-dir", str(tmp_path / "cache"),
         "--no-error-summary", "user_code.py"],
        cwd=str(tmp_path), env=dict(os.environ, MYPYPATH=ROOT), stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
        universal_newlines=True)
    errors = re.findall(r"^user_code\.py:(\d+): error: (.*?)  \[", result.stdout, flags=re.M)
    lines = sorted(set(int(line) for line, _ in errors))
    assert lines == [9, 10, 11, 12], result.stdout
    text = result.stdout
    assert 'Unexpected keyword argument "hyperparamters" for "ModelTrainer"; did you mean "hyperparameters"?' in text
    assert 'Unexpected keyword argument "instance_cont" for "Compute"; did you mean "instance_count"?' in text
    assert 'Unexpected keyword argument "process_count_per_nodes" for "Torchrun"' in text
    assert 'Too many positional arguments for "SourceCode"' in text
