"""Regenerate sagemaker_hetero/data/training_instance_types.json from the installed botocore."""
import json
import os

import botocore
import botocore.session

HERE = os.path.dirname(os.path.abspath(__file__))
TARGET = os.path.join(HERE, "..", "sagemaker_hetero", "data", "training_instance_types.json")


def main():
    model = botocore.session.get_session().get_service_model("sagemaker")
    types = list(model.shape_for("TrainingInstanceType").enum)
    about = (
        "SageMaker TrainingInstanceType enum, snapshot of the botocore %s service model. "
        "Regenerate with tools/refresh_instance_types.py; at run time a type missing here is "
        "looked up in the installed botocore's model before it is refused." % botocore.__version__
    )
    with open(TARGET, "w") as f:
        json.dump({"_about": about, "botocore_version": botocore.__version__, "instance_types": types}, f, indent=0)
    print("%d instance types written to %s" % (len(types), os.path.normpath(TARGET)))


if __name__ == "__main__":
    main()
