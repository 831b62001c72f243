"""launcher.with_jvm_opts: the JVM flags one start adds (the cold-start shape's recording from launch)."""
import launcher


def test_flags_for_one_start_go_after_the_variants_own_and_before_the_apps_arguments():
    plain = ["perflab", "app", "start", "--port", "1", "--", "--x=1"]
    assert launcher.with_jvm_opts(plain, "") == plain
    assert launcher.with_jvm_opts(plain, "-XX:A") == ["perflab", "app", "start", "--port", "1", "--jvm-opts", "-XX:A",
                                                      "--", "--x=1"]
    own = ["perflab", "app", "start", "--jvm-opts", "-Xmn128m", "--", "--jvm-opts"]
    assert launcher.with_jvm_opts(own, "-XX:A") == ["perflab", "app", "start", "--jvm-opts", "-Xmn128m -XX:A", "--",
                                                    "--jvm-opts"]
    assert plain == ["perflab", "app", "start", "--port", "1", "--", "--x=1"]  # the command itself is left alone
