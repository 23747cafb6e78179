"""What each legal option gives, for people: the ``label`` of an option and of each of its
variants in a seat's view (``Game.view``). Worded from the rules the engine applies (the
HQ's Reputation or named draw, a supply space's effect, doubled for the Smuggler by Night)."""

from __future__ import annotations

from typing import Any

from .cards import BOARD, CONTACTS, FACTION_NAMES, JOB_REWARDS, JOBS, SCHEMES
from .content import content_of
from .flow import figure_sector
from .state import GameState

# The option as a whole, by command.
COMMANDS = {
    "move_watchdog": "Move a Watchdog to another sector",
    "bid": "Bid: raise your bribes on the contact (1 bribe is spent as the expense)",
    "pass": "Pass",
    "favor": "Use a favor: win the contact at once",
    "reward": "Take the contact's reward",
    "discard": "Discard a scheme",
    "thug_response": "Answer the Thug",
    "choose_sector": "Choose your sector (sealed until everyone has chosen)",
    "place": "Place a figure on a space of its sector",
    "forgo": "Forgo the placement (Smuggler): 1 resource and 1 scheme",
    "play_scheme": "Play a scheme",
    "remove_watchdog": "Remove a Watchdog (Sector Chief)",
    "resign": "Resign: leave the game",
    "timeout": "Play the step's timeout",
}


def _sector(n: int) -> str:
    return f"sector {n} ({BOARD[n].name})"


def _faction(f: str | None) -> str:
    return FACTION_NAMES.get(f or "", f or "")


def _supply(state: GameState, sector: int) -> str:
    kind = content_of(state).board[sector].supply
    if kind == "special":
        return "recover 3 bribes" if state.day else "+1 Infamy"
    return f"+1 {kind}"


def _twice(state: GameState, seat: int, text: str) -> str:
    return f"{text}, twice (Smuggler, Night)" if state.smuggler == seat and not state.day else text


def _place(state: GameState, seat: int, v: dict[str, Any]) -> str:
    sector = figure_sector(state, seat, v["figure"])
    figure = "your accomplice" if v["figure"] == "accomplice" else "your figure"
    if v["space"] == "hq":
        faction = BOARD[sector].hq
        gain = (
            f"+1 Reputation with {_faction(faction)}"
            if state.players[seat].rep_of(faction) == 0
            else f"draw 1 {_faction(faction)} scheme"
        )
        return f"On the HQ ({figure}): {_twice(state, seat, gain)}"
    if v["space"] == "supply":
        return f"On the supply space ({figure}): {_twice(state, seat, _supply(state, sector))}"
    job = content_of(state).jobs[v["job"]]
    pays = ", ".join(f"{n} {k}" for k, n in job.requires) or "nothing"
    gives = [f"+{job.infamy} Infamy"] if job.infamy else []
    if job.rep:
        gives.append(f"+{job.rep} Reputation with {_faction(v.get('faction'))}")
    if job.reward:
        gives.append(JOB_REWARDS[job.reward])
    return f"Do {job.name} ({figure}): pay {pays}; {', '.join(gives) or 'no gain'}"


def _reward(state: GameState, seat: int, v: dict[str, Any]) -> str:
    if v.get("choice") == "infamy":
        return "+2 Infamy"
    if v.get("choice") == "rep":
        return f"+1 Reputation with {_faction(v.get('faction'))}"
    if v.get("deck"):
        return f"Draw from the {_faction(v['deck'])} schemes"
    if v.get("sector") is not None:
        return f"Add a Watchdog to {_sector(v['sector'])}"
    if "rival" in v or "job" in v or "hazard" in v:
        if v.get("rival") is not None:
            return f"{state.players[v['rival']].name}: 3 bribes or 1 {v.get('resource')}"
        if "rival" in v:
            return "Name no rival"
        job = f"sabotage {JOBS[v['job']].name}" if v.get("job") else "sabotage no job"
        hazard = f"hazard on {_sector(int(v['hazard'][0]))}" if v.get("hazard") else "no hazard"
        return f"{job}; {hazard}"
    if v.get("resource"):
        return f"+1 {v['resource']}"
    return "Take nothing"


def variant(state: GameState, seat: int, v: dict[str, Any]) -> str:
    """What one legal form of a command (its JSON, with ``type``) does, for people."""
    kind = str(v["type"])
    if kind == "move_watchdog":
        return f"{_sector(v['from'])} → {_sector(v['to'])}"
    if kind == "bid":
        return f"Raise your total to {v['total']} (1 bribe spent)"
    if kind == "reward":
        return _reward(state, seat, v)
    if kind == "discard":
        return f"Discard {SCHEMES[v['card']].name}"
    if kind == "thug_response":
        return "Spend 3 bribes to cancel it" if v["cancel"] else "Give up the resource"
    if kind == "choose_sector":
        text = _sector(v["sector"])
        return (
            text
            if v.get("accomplice") is None
            else f"{text}; accomplice: {_sector(v['accomplice'])}"
        )
    if kind == "place":
        return _place(state, seat, v)
    if kind == "forgo":
        return f"Forgo: +1 {v['resource']}, draw from the {_faction(v['deck'])} schemes"
    if kind == "play_scheme":
        d = SCHEMES[v["card"]]
        return f"Play {d.name}: {d.text}"
    if kind == "remove_watchdog":
        return f"Remove the Watchdog from {_sector(v['sector'])}"
    return COMMANDS.get(kind, kind.replace("_", " ").capitalize())


def option(state: GameState, seat: int | None, command: str, forms: list[dict[str, Any]]) -> str:
    """The option as a whole: the command and, when it has one form, what that gives."""
    base = COMMANDS.get(command, command.replace("_", " ").capitalize())
    if command == "reward" and state.results and state.results[-1] is not None:
        contact = state.track[len(state.results) - 1]
        base = f"Take the {CONTACTS[contact].name}'s reward: {CONTACTS[contact].text}"
    elif command == "favor" and state.auction is not None:
        base = f"Use a favor: win the {CONTACTS[state.auction.contact].name} at once"
    if len(forms) == 1 and seat is not None and command in ("place", "discard", "play_scheme"):
        return variant(state, seat, forms[0])
    return base
