"""Play one game of TDE as side A (at random) against the built-in scripted player."""
import numpy as np

import tde

state = tde.new_game(scenario="random", seed=1)  # a scenario rolled from the seed
bot = tde.Agent("scripted", seed=1)  # any spec `tde arena --agents` takes
rng = np.random.default_rng(1)
while not state.is_terminal():
    if state.is_chance_node():  # a die roll or a card draw, with its exact odds
        outcomes, odds = zip(*state.chance_outcomes())
        state.apply_action(int(rng.choice(outcomes, p=odds)))
    elif state.current_player() == 0:  # you: side A (plug your policy in here)
        state.apply_action(int(rng.choice(state.legal_actions())))
    else:  # the bot: side B
        state.apply_action(bot.step(state))
print(f"{state.scenario()}: returns {state.returns()}, VP {state.victory_points()}")
