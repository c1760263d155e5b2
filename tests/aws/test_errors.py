"""The one error translator (sagemaker_hetero._aws.errors), unit tests: botocore's exceptions as botocore
builds them from an answer, no network. The same answers over HTTP are in tests/test_submission_faults.py."""
import botocore.exceptions as B
import pytest

from sagemaker_hetero import exceptions as E
from sagemaker_hetero._aws.errors import translate

ENDPOINT = "https://api.sagemaker.us-west-2.amazonaws.com"
MOTO_PAGE = ("<!doctype html>\n<html lang=en>\n<title>500 Internal Server Error</title>\n<h1>Internal Server Error"
             "</h1>\n<p>The server encountered an internal error and was unable to complete your request.</p>\n")


def client_error(code, message, status, operation="CreateTrainingJob"):
    """What botocore raises for an answer with this status, error code and message."""
    return B.ClientError({"Error": {"Code": code, "Message": message},
                          "ResponseMetadata": {"HTTPStatusCode": status, "HTTPHeaders": {}}}, operation)


@pytest.mark.parametrize("code, says", [
    ("InvalidSignatureException", "The secret access key does not match the access key ID"),
    ("SignatureDoesNotMatch", "The secret access key does not match the access key ID"),
    ("IncompleteSignature", "The secret access key does not match the access key ID"),
    ("InvalidClientTokenId", "AWS does not know the access key ID"),
    ("UnrecognizedClientException", "AWS does not know the access key ID"),
    ("ExpiredTokenException", "The credentials have expired"),
    ("RequestExpired", "The credentials have expired"),
])
def test_credential_errors_say_what_is_wrong_with_the_credentials(code, says):
    error = translate(client_error(code, "whatever AWS says", 400), "CreateTrainingJob")
    assert type(error) is E.NoCredentialsError
    assert error.code == code
    assert says in str(error) and "aws configure" in str(error)


def test_an_html_page_is_summarised_in_one_line():
    error = translate(client_error("500", MOTO_PAGE, 500, "StopTrainingJob"), "StopTrainingJob", endpoint=ENDPOINT)
    head, hint = str(error).split("\n")
    assert head == ("StopTrainingJob failed with 500: HTTP 500, an HTML page ('500 Internal Server Error'): the "
                    "endpoint %s failed inside, or does not implement StopTrainingJob (an emulator such as moto "
                    "answers so for an operation it lacks)" % ENDPOINT)
    assert "AWS_ENDPOINT_URL" in hint
    assert error.code == "500" and error.operation == "StopTrainingJob"


def test_a_4xx_html_page_is_something_other_than_aws():
    page = "<html><head><title>403 Forbidden</title></head><body>corporate proxy</body></html>"
    error = translate(client_error("403", page, 403), "CreateTrainingJob")
    assert type(error) is E.AWSError  # not AccessDeniedError: AWS did not say so
    assert "HTTP 403, an HTML page ('403 Forbidden'): something other than the AWS API answered" in str(error)


def test_a_bare_5xx_without_a_page_is_summarised_too():
    error = translate(client_error("502", "Bad Gateway", 502), "DescribeTrainingJob")
    assert "HTTP 502, no AWS error in the answer" in str(error)


@pytest.mark.parametrize("code, status", [("UnknownOperationException", 400), ("InvalidAction", 400),
                                          ("NotImplemented", 501)])
def test_an_unimplemented_operation_is_named(code, status):
    error = translate(client_error(code, "", status), "CreateTrainingJob", endpoint="http://localhost:4566")
    assert str(error).startswith("CreateTrainingJob failed with %s: HTTP %d: the endpoint http://localhost:4566 "
                                 "does not implement CreateTrainingJob" % (code, status))


@pytest.mark.parametrize("code, cls", [("404", E.ResourceNotFoundError), ("403", E.AccessDeniedError)])
def test_a_head_requests_bare_status_keeps_its_meaning(code, cls):
    # HEAD answers have no body: botocore gives the status as the code and its reason as the message
    error = translate(client_error(code, "Not Found" if code == "404" else "Forbidden", int(code), "HeadObject"),
                      "HeadObject")
    assert type(error) is cls


def test_an_aws_json_500_stays_as_aws_said():
    error = translate(client_error("InternalFailure", "We encountered an internal error.", 500), "CreateTrainingJob")
    assert str(error) == "CreateTrainingJob failed with InternalFailure: We encountered an internal error."


def _unparseable(body):
    """What botocore raises for an answer it cannot parse (a plain Exception, not a BotoCoreError)."""
    from botocore.parsers import ResponseParserError

    return ResponseParserError("Unable to parse response (syntax error: line 1, column 0), invalid XML received. "
                               "Further retries may succeed:\n%r" % body)


@pytest.mark.parametrize("body, says", [
    (MOTO_PAGE.encode(), "an HTML page ('500 Internal Server Error')"),
    (b"", "an empty answer"),
    (b"{not xml", "an answer that is not AWS's"),
])
def test_an_answer_botocore_cannot_parse_is_an_aws_error_in_one_line(body, says):
    error = translate(_unparseable(body), "SimulatePrincipalPolicy", endpoint="http://127.0.0.1:5000")
    assert type(error) is E.AWSError and error.code == "ResponseParserError"
    assert says in str(error) and "http://127.0.0.1:5000" in str(error) and "<p>" not in str(error)


def test_call_translates_an_answer_botocore_cannot_parse():
    from sagemaker_hetero._aws.errors import call

    class Client(object):  # what a botocore client raises for such an answer
        def simulate_principal_policy(self, **params):
            raise _unparseable(MOTO_PAGE.encode())

    with pytest.raises(E.AWSError) as info:
        call(Client(), "SimulatePrincipalPolicy", PolicySourceArn="arn")
    assert info.value.operation == "SimulatePrincipalPolicy" and info.value.code == "ResponseParserError"


def test_an_answer_the_parser_itself_cannot_read_is_told_as_before_and_one_of_another_shape_names_the_error():
    import botocore.session
    from botocore import parsers

    model = botocore.session.get_session().get_service_model("sts").operation_model("GetCallerIdentity")

    def raised(body):
        try:
            parsers.create_parser("query").parse({"body": body, "headers": {}, "status_code": 200}, model.output_shape)
        except Exception as exc:  # noqa: BLE001 - whatever the parser raises, raised by the parser
            return exc
        raise AssertionError("parsed")

    cut = translate(raised(b"<GetCallerIdentityResponse><GetCallerIdentityResult>"), "GetCallerIdentity")
    assert cut.code == "ResponseParserError" and "an answer that is not AWS's" in str(cut)
    page = translate(raised(b"<html><body>Welcome</body></html>"), "GetCallerIdentity")
    assert page.code == "ResponseParserError" and "another shape (KeyError: 'GetCallerIdentityResult')" in str(page)


def test_an_error_raised_inside_botocores_parser_is_one_thing_to_translate_and_to_call():
    # one test of "raised reading an answer" (answers.raised_reading_answer) for both places: translate and
    # call; a parser's KeyError out of a client call was re-raised bare by call while translate named it
    import botocore.session
    from botocore import parsers

    from sagemaker_hetero._aws.errors import call

    model = botocore.session.get_session().get_service_model("sts").operation_model("GetCallerIdentity")

    class Client(object):  # a client whose parser read an HTML page (no HTTP answer behind it)
        def get_caller_identity(self):
            return parsers.create_parser("query").parse(
                {"body": b"<html><body>Welcome</body></html>", "headers": {}, "status_code": 200}, model.output_shape)

    with pytest.raises(E.AWSError) as info:
        call(Client(), "GetCallerIdentity")
    assert info.value.operation == "GetCallerIdentity" and info.value.code == "ResponseParserError"
    assert "KeyError: 'GetCallerIdentityResult'" in str(info.value)


def test_whether_an_answer_was_being_read_is_told_in_one_place():
    import os

    import sagemaker_hetero

    package = os.path.dirname(sagemaker_hetero.__file__)
    found = []
    for folder, _, files in os.walk(package):
        for name in files:
            if name.endswith(".py"):
                with open(os.path.join(folder, name)) as f:
                    if "botocore/parsers.py" in f.read():
                        found.append(os.path.relpath(os.path.join(folder, name), package))
    assert found == [os.path.join("_aws", "answers.py")]


def test_botocores_no_region_is_told_in_the_region_rules_one_wording():
    # the translator wrote its own advice ("Set AWS_REGION, a region in your AWS profile, ..."), a second
    # wording of the region rule that left out AWS_DEFAULT_REGION
    error = translate(B.NoRegionError(), "CreateTrainingJob")
    assert error.code == "NoRegion"
    assert error.hint == ("no AWS region is configured: set AWS_REGION (or AWS_DEFAULT_REGION), a region in your AWS "
                          "profile, or pass boto3.Session(region_name=...).")
