"""Mana pools.  See rule 601.2b for how X is announced (CR 601.2f gives the total cost)."""


def end_of_step(pool):
    # CR 500.4: unspent mana empties from each player's mana pool at the end of each step and phase.
    pool.clear()


def pay(pool, cost):
    # CR 117.3a: paying mana is done by removing the indicated mana from a player's mana pool.
    pool.remove(cost)


def layer_counters(obj):
    # CR 613.3d: layer 7d applies power and toughness changes from counters
    return obj


VERSION = "1.20.3"  # not a citation
