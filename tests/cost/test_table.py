"""A user's price table: JSON or CSV files and mappings; every problem at once, each naming its line."""
import decimal

import pytest

from sagemaker_hetero._cost import table as T
from sagemaker_hetero.exceptions import ConfigError

D = decimal.Decimal
MUST = "must be the on-demand USD per hour, a number from 0.000001 to 1,000,000"


def problems(call, *args, **kwargs):
    with pytest.raises(ConfigError) as info:
        call(*args, **kwargs)
    assert info.value.subject == "the price table"
    return [str(p) for p in info.value.problems]


def test_a_json_file_prices_types_everywhere_or_in_one_region(tmp_path):
    path = tmp_path / "prices.json"
    path.write_text('{"ml.c5.xlarge": 0.204, "ml.p3.2xlarge": "3.825",\n "us-east-1": {"ml.p3.2xlarge": 3.06}}\n')
    table = T.load(str(path))
    assert table.price("us-west-2", "ml.c5.xlarge").usd_per_hour == D("0.204")
    assert table.price("us-west-2", "ml.p3.2xlarge").usd_per_hour == D("3.825")
    assert table.price("us-east-1", "ml.p3.2xlarge").usd_per_hour == D("3.06")  # the region's own wins
    assert table.price("us-east-1", "ml.p3.2xlarge").region == "us-east-1"
    assert table.price("us-west-2", "ml.g5.2xlarge") is None
    assert table.price("us-west-2", "ml.c5.xlarge").origin() == "prices file %s" % path


def test_a_csv_file_with_a_header_comments_and_an_optional_region_column(tmp_path):
    path = tmp_path / "prices.csv"
    path.write_text("# our negotiated prices\ninstance_type, usd_per_hour, region\n\nml.c5.xlarge,0.20,\n"
                    "ml.c5.xlarge,0.19,eu-west-1\n")
    table = T.load(str(path))
    assert table.price("us-west-2", "ml.c5.xlarge").usd_per_hour == D("0.20")
    assert table.price("eu-west-1", "ml.c5.xlarge").usd_per_hour == D("0.19")
    assert len(table) == 2


def test_every_problem_of_a_json_file_names_its_line(tmp_path):
    path = tmp_path / "prices.json"
    path.write_text('{\n "ml.c5.xlarge": 0.2,\n "ml.c5.xlarge": 0.3,\n "us-west-2": {"ml.p3.2xlarge": -1,\n'
                    '   "p3": 1},\n "europe": {"ml.m5.xlarge": "x"},\n "ml.g5.2xlarge": {"a": 1}\n}\n')
    assert problems(T.load, str(path)) == [
        "prices: %s line 3: ml.c5.xlarge is priced twice (first line 2)" % path,
        "prices: %s line 4: ml.p3.2xlarge %s (got -1)" % (path, MUST),
        "prices: %s line 5: is not a SageMaker instance type (ml.<family>.<size>) (got 'p3')" % path,
        "prices: %s line 6: is not a region name (such as us-west-2) (got 'europe')" % path,
        "prices: %s line 6: ml.m5.xlarge %s (got 'x')" % (path, MUST),
        "prices: %s line 7: ml.g5.2xlarge %s (got {'a': 1})" % (path, MUST),
    ]


@pytest.mark.parametrize("text, line, words", [
    ('{\n "ml.c5.xlarge": 0.2\n "ml.m5.xlarge": 0.3\n}', 3, "is not valid: expected ',' or '}'"),
    ('{\n "ml.c5.xlarge": 0.2,\n "ml.m5.xlarge": tru\n}', 3, "is not valid JSON: Expecting value"),
    ('[\n {"ml.c5.xlarge": 0.2}\n]', 1, "is not valid: expected a JSON object"),
    ('{"ml.c5.xlarge": 0.2}\n\n{}', 3, "is not valid: expected nothing after the object"),
    ('{\n "ml.c5.xlarge": 0.2,\n "ml.m5.xlarge": "0.3\n}', 3, "is not valid JSON: Invalid control character"),
])
def test_malformed_json_names_the_line(text, line, words):
    (problem,) = problems(T.parse, text, "p.json")
    assert problem.startswith("prices: p.json line %d: %s" % (line, words)), problem


def test_every_problem_of_a_csv_file_names_its_line():
    text = "instance_type,usd_per_hour,region\nml.c5.xlarge,0.2\nml.c5.xlarge,abc,us-west-2\nml.m5.xlarge,1,usa\n"
    assert problems(T.parse, text, "p.csv", "--prices") == [
        "--prices: p.csv line 2: has 2 values for 3 columns (got 'ml.c5.xlarge,0.2')",
        "--prices: p.csv line 3: ml.c5.xlarge %s (got 'abc')" % MUST,
        "--prices: p.csv line 4: is not a region name (such as us-west-2) (got 'usa')",
    ]
    assert problems(T.parse, "# nothing\n", "p.csv") == [
        "prices: p.csv line 1: holds no header: the first line names the columns instance_type,usd_per_hour[,region]"]
    assert problems(T.parse, "\ntype,price\nml.c5.xlarge,1\n", "p.csv") == [
        "prices: p.csv line 2: is not the header: it names the columns instance_type,usd_per_hour[,region] once each "
        "(got 'type,price')"]


def test_a_mapping_names_its_keys():
    table = T.from_mapping({"ml.c5.xlarge": 0.204, "us-east-1": {"ml.c5.xlarge": D("0.19")}})
    assert table.price("us-west-2", "ml.c5.xlarge").usd_per_hour == D("0.204")
    assert table.price("us-east-1", "ml.c5.xlarge").usd_per_hour == D("0.19")
    assert table.price("us-east-1", "ml.c5.xlarge").origin() == "the prices given (prices=)"
    assert problems(T.from_mapping, {"ml.c5.xlarge": None, "c5": 1, "us-east-1": {"ml.c5.xlarge": "x"}}) == [
        "prices: ['ml.c5.xlarge']: ml.c5.xlarge %s (got None)" % MUST,
        "prices: ['c5']: is not a SageMaker instance type (ml.<family>.<size>) (got 'c5')",
        "prices: ['us-east-1']['ml.c5.xlarge']: ml.c5.xlarge %s (got 'x')" % MUST,
    ]


def test_table_of_takes_a_path_a_mapping_a_table_or_the_variable(tmp_path):
    path = tmp_path / "org-prices.csv"
    path.write_text("instance_type,usd_per_hour\nml.c5.xlarge,0.1\n")
    assert T.table_of(str(path)).price("us-west-2", "ml.c5.xlarge").usd_per_hour == D("0.1")
    assert T.table_of(path).price("us-west-2", "ml.c5.xlarge").usd_per_hour == D("0.1")  # a PathLike
    table = T.table_of({"ml.c5.xlarge": 1})
    assert T.table_of(table) is table
    assert T.table_of(None, environ={}) is None
    assert T.table_of(None, environ={"SAGEMAKER_HETERO_PRICES": str(path)}).source == "prices file %s" % path
    assert problems(T.table_of, 42) == [
        "prices: must be a price file's path or a mapping of instance type to USD per hour (got 42)"]


def test_a_file_that_cannot_be_read_or_is_not_text(tmp_path):
    assert problems(T.load, str(tmp_path / "missing.csv")) == [
        "prices: cannot be read: No such file or directory (got %r)" % str(tmp_path / "missing.csv")]
    assert problems(T.load, str(tmp_path)) == ["prices: cannot be read: not a regular file (got %r)" % str(tmp_path)]
    binary = tmp_path / "p.csv"
    binary.write_bytes(b"\xff\xfe\x00")
    assert problems(T.load, str(binary))[0].startswith("prices: is not UTF-8 text")


def test_a_price_out_of_the_sane_range_is_a_problem_naming_its_line_and_the_value_as_written():
    text = ('{\n "ml.a.b": 1e400,\n "ml.c.d": 0,\n "ml.e.f": 1e-300,\n "ml.g.h": NaN,\n "ml.i.j": Infinity,\n'
            ' "ml.k.l": %s,\n "ml.m.n": 1000000.5,\n "ml.o.p": 0.0000001,\n "ml.q.r": 1000000,\n'
            ' "ml.s.t": 0.000001\n}\n' % ("9" * 10000))
    found = problems(T.parse, text, "p.json")
    assert found[:5] == ["prices: p.json line %d: ml.%s %s (got %s)" % (n, t, MUST, v) for n, t, v in (
        (2, "a.b", "1e400"), (3, "c.d", "0"), (4, "e.f", "1e-300"), (5, "g.h", "NaN"), (6, "i.j", "Infinity"))]
    assert found[5].startswith("prices: p.json line 7: ml.k.l %s (got 9999" % MUST) and len(found[5]) < 400
    assert found[6:] == ["prices: p.json line 8: ml.m.n %s (got 1000000.5)" % MUST,
                         "prices: p.json line 9: ml.o.p %s (got 0.0000001)" % MUST]
    csv_text = "instance_type,usd_per_hour\nml.a.b,1e400\nml.c.d,0\nml.e.f,-5\nml.g.h,inf\nml.i.j,%s\n" % ("1" * 5000)
    assert [p.split(" (got")[0] for p in problems(T.parse, csv_text, "p.csv")] == [
        "prices: p.csv line %d: ml.%s %s" % (n, t, MUST) for n, t in (
            (2, "a.b"), (3, "c.d"), (4, "e.f"), (5, "g.h"), (6, "i.j"))]
    mapping = {"ml.a.b": float("inf"), "ml.c.d": float("nan"), "ml.e.f": 10 ** 5000, "ml.g.h": D("1e400"), "ml.i.j": 0}
    found = problems(T.from_mapping, mapping)
    assert found[2] == "prices: ['ml.e.f']: ml.e.f %s (got an integer of 5,001 digits)" % MUST and len(found) == 5
    assert problems(T.from_mapping, {10 ** 5000: 1})[0].startswith("prices: [an integer of 5,001 digits]: is not")
    table = T.parse('{"ml.a.b": 1000000, "ml.c.d": 0.000001, "ml.e.f": 3.8250000000}', "p.json")
    assert [table.price(None, t).usd_per_hour for t in ("ml.a.b", "ml.c.d", "ml.e.f")] == [
        D(1000000), D("0.000001"), D("3.825")]


def test_a_big_table_holds_at_most_100000_prices_names_its_lines_and_lists_its_first_20_problems():
    rows = "instance_type,usd_per_hour\n" + "".join("ml.a%d.b,1\n" % n for n in range(100001))
    assert problems(T.parse, rows, "p.csv") == [
        "prices: p.csv holds 100,001 rows, more than the 100,000 a price table may hold"]
    assert problems(T.from_mapping, dict(("ml.a%d.b" % n, 1) for n in range(100001))) == [
        "prices: holds 100,001 prices, more than the 100,000 a price table may hold"]
    assert len(T.parse(rows.rsplit("ml.a100000.b", 1)[0], "p.csv")) == 100000  # the most is read
    text = "{\n%s\n}\n" % ",\n".join('"ml.a%d.b": %s' % (n, '"x"' if n in (7, 59999) else "1") for n in range(60000))
    assert [p.split(":")[1] for p in problems(T.parse, text, "p.json")] == [" p.json line 9", " p.json line 60001"]
    bad = "instance_type,usd_per_hour\n" + "ml.c5.xlarge,x\n" * 25
    found = problems(T.parse, bad, "p.csv")
    assert found[:20] == ["prices: p.csv line %d: ml.c5.xlarge %s (got 'x')" % (n, MUST) for n in range(2, 22)]
    assert found[20:] == ["prices: p.csv: ... and 5 more problems (25 in all)"]
    assert problems(T.from_mapping, dict(("c%d" % n, 1) for n in range(30)))[20:] == [
        "prices: ... and 10 more problems (30 in all)"]


def test_each_csv_line_is_read_apart_and_a_line_that_is_no_csv_row_is_a_problem():
    text = 'instance_type,usd_per_hour\nml.a.b,"1\nml.c.d,2\nml.e.f,"3"x\nml.g.h,%s\n' % ("1" * 200000)
    found = problems(T.parse, text, "p.csv")
    assert [p.split(" (got")[0] for p in found] == [
        "prices: p.csv line 2: is not a CSV row (unexpected end of data)",
        "prices: p.csv line 4: is not a CSV row (',' expected after '\"')",
        "prices: p.csv line 5: is not a CSV row (field larger than field limit (131072))"]
    table = T.parse('instance_type,usd_per_hour\n"ml.a.b","1.5"\n', "p.csv")
    assert table.price(None, "ml.a.b").usd_per_hour == D("1.5")



def test_problems_show_a_huge_or_deep_key_or_value_cut_short_never_raising():
    deep = []
    for _ in range(100000):
        deep = [deep]
    found = problems(T.from_mapping, {10 ** 5000: "x", "k" * 100000: "x", "ml.c5.xlarge": deep,
                                      "ml.c5.2xlarge": [1] * 100000, "us-east-1": {10 ** 5000: 1}})
    assert len(found) == 7 and max(len(p) for p in found) < 600
    assert found[1] == "prices: [an integer of 5,001 digits]: an integer of 5,001 digits %s (got 'x')" % MUST
    assert "(got a list too deep or too large to show)" in found[4]
    with pytest.raises(ConfigError) as info:
        T.parse('{"%s": "x", "ml.c5.xlarge": [%s]}' % ("k" * 900000, ",".join(["1"] * 100000)), "p.json")
    # every value a problem keeps is cut short too: --output json writes each problem's value as it is
    assert all(len(str(p.value)) < 300 for p in info.value.problems) and len(str(info.value)) < 2000
    assert info.value.problems[1].message == "p.json line 1: %s... (900,002 characters) %s" % (
        repr("k" * 900000)[:60], MUST)


def test_a_price_in_other_digits_is_a_problem():
    assert problems(T.parse, "instance_type,usd_per_hour\nml.c5.xlarge,\u0661\u0662\n", "p.csv") == [
        "prices: p.csv line 2: ml.c5.xlarge %s (got '\u0661\u0662')" % MUST]
