"""docs/scenarios.md: a file whose shape is wrong is invalid, with a one-line reason."""

import pytest

from cardroom.drive.scenario import InvalidScenario, load_scenario, run_scenario


@pytest.mark.parametrize(
    ("text", "says"),
    [
        ("{", "not valid JSON"),
        ("[1, 2]", "a scenario is a JSON object"),
        ('{"game": "chess", "players": 2}', "'game' must be one of"),
        ('{"game": "burrito", "players": 2, "colour": "red"}', "unknown field 'colour'"),
        ('{"game": "burrito", "players": 13}', "2 to 12 players"),
        ('{"game": "kittens", "players": 1}', "2 to 10 players"),
        ('{"game": "burrito", "players": "three"}', "'players' must be an integer"),
        ('{"game": "burrito", "players": 3, "options": []}', "'options' must be an object"),
        ('{"game": "burrito", "players": 3, "actions": {}}', "'actions' must be a list"),
    ],
)
def test_a_malformed_file_is_invalid_with_a_clear_reason(text: str, says: str) -> None:
    with pytest.raises(InvalidScenario, match=says):
        run_scenario(load_scenario(text))


@pytest.mark.parametrize("game", ["burrito", "kittens"])
def test_an_action_by_a_player_who_does_not_exist_is_invalid(game: str) -> None:
    data = {"game": game, "players": 3, "seed": 1, "actions": [{"at": 0, "player": 3, "do": "draw"}]}
    with pytest.raises(InvalidScenario, match="no player 3"):
        run_scenario(data)


@pytest.mark.parametrize("game", ["burrito", "kittens"])
def test_time_going_backwards_is_invalid(game: str) -> None:
    data = {
        "game": game,
        "players": 3,
        "seed": 1,
        "actions": [{"at": 500, "player": 0, "do": "draw"}, {"at": 100, "player": 1, "do": "draw"}],
    }
    with pytest.raises(InvalidScenario, match="'at' goes backwards"):
        run_scenario(data)


@pytest.mark.parametrize("game", ["burrito", "kittens"])
def test_an_unknown_action_is_invalid(game: str) -> None:
    data = {"game": game, "players": 3, "seed": 1, "actions": [{"at": 0, "player": 0, "do": "juggle"}]}
    with pytest.raises(InvalidScenario, match="action 0"):
        run_scenario(data)


@pytest.mark.parametrize("game", ["burrito", "kittens"])
def test_an_unknown_option_is_invalid(game: str) -> None:
    with pytest.raises(InvalidScenario, match="speed_of_light"):
        run_scenario({"game": game, "players": 3, "options": {"speed_of_light": 1}})


@pytest.mark.parametrize("game", ["burrito", "kittens"])
def test_the_same_file_gives_the_same_output(game: str) -> None:
    data = {"game": game, "players": 4, "seed": 11, "actions": [], "until": 30_000}
    assert run_scenario(data).lines() == run_scenario(data).lines()
