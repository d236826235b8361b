"""The exit statuses of `cloudspire`, one scheme for every command (README.md, Exit status)."""

OK = 0  # answered: a claim is legal or mandatory, a file is valid, every FAQ case passes
NO = 1  # the answer is "no": a claimed move or attack is illegal, a FAQ case fails
BAD_INPUT = 2  # the input cannot be used: position file, option value, unit, move notation
UNDETERMINED = 3  # the answer depends on a rule or talent the adjudicator does not model
TIMED_OUT = 4  # the time ran out: the answer printed is incomplete
INTERNAL = 70  # a bug in the adjudicator (EX_SOFTWARE in sysexits.h)

HELP = (
    "Exit status: 0 answered (legal or mandatory, valid, every FAQ case passes); "
    "1 the answer is no (an illegal claim, a failing FAQ case); "
    "2 the input cannot be used (position file, option value, unit, move notation); "
    "3 undetermined (a rule or talent the adjudicator does not model); "
    "4 timed out (the answer printed is incomplete); "
    "70 internal error (a bug: please report it)."
)
