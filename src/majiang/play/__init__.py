"""Playing many hands with agents: ``play_hand`` drives one deal, ``Match`` hands in sequence with
the dealer rules, and the arena (``run_arena``) duplicate deals with the agents rotated through
the seats, its ``ArenaResult.summary()`` the means with 95% intervals (``majiang arena``). A
finished hand's decisions of one seat, each valued by ``expert``'s search from that seat's view
(复盘): ``review.review_hand`` (``majiang review``)."""
