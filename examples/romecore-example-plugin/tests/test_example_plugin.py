"""The example plugin, installed: romecore finds its agent and evaluator by entry point."""

import romecore


def test_registered():
    assert "example_agent" in romecore.list_agents()


def test_agent_plays_legal_moves():
    game = romecore.load_game("great_city_of_rome", players=2)
    state = game.new_initial_state(seed=5)
    bot = romecore.make_agent("example_agent:playouts=2", game=game, seed=1)
    for _ in range(20):
        if state.is_terminal():
            break
        if state.is_chance_node():
            state.apply_random_chance()
            continue
        action = bot.step(state.resample(state.current_player(), seed=3))
        assert state.is_legal(action)
        state.apply_action(action)


def test_evaluator_shares():
    game = romecore.load_game("rise_to_power", players=3)
    state = game.new_initial_state(seed=2)
    values = romecore.make_evaluator(game, "example_score_share")(state)
    assert len(values) == 3 and abs(sum(values) - 1.0) < 1e-9
