"""Playing many hands with agents: ``play_hand`` drives one deal, ``Match`` hands in sequence with
the dealer rules, and the arena (``run_arena``) duplicate deals with the agents rotated through
the seats, its ``ArenaResult.summary()`` the means with 95% intervals (``majiang arena``)."""
