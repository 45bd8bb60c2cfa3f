"""Hand and match records (spec sections 3 and 4): from TOML tables to checked, immutable data.

Parsing checks the shape of a record and everything it can check without a ruleset (card
tokens, players, teams); `Table.check_against` and the scoring step check the rest. Every
error names its key ("captured.Us", "hands[3].bid.amount") so the CLI can say where.
"""

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from functools import cached_property
from typing import Any, NamedTuple, TypeVar

from pitchkeeper.errors import PitchError, control_free, did_you_mean, or_list, unknown_key
from pitchkeeper.game.cards import Card, Suit, parse_card, parse_cards, parse_suit
from pitchkeeper.game.points import POINT_IDS  # noqa: F401 (the contract's point ids, re-exported)

HEADER_KEYS = ("rules", "players", "teams")
HAND_KEYS = ("dealer", "trump", "bid", "auction", "captured", "points", "tricks", "dealt", "held", "revokes",
             "kitty", "discard", "drawn", "called", "partner")
PARTNER_NOBODY = ("none", "nobody", "-", "alone")  # `partner` words for "no other player held the called card"
SMUDGE_WORDS = ("smudge", "moon", "shoot the moon", "shoot")  # a bid of the smudge, whatever the ruleset calls it
# Keys pitchkeeper itself writes into a match log's hands and header (the spec lets it add its own).
EXTRA_HAND_KEYS = ("note", "recorded", "announced")
MATCH_KEYS = HEADER_KEYS + ("target", "first_dealer", "hands", "format", "ruleset", "title", "created",
                            "stake", "note", "rematch_of")
HAND_RECORD_KEYS = HEADER_KEYS + HAND_KEYS + EXTRA_HAND_KEYS


class Bid(NamedTuple):
    player: str
    amount: int  # 0: pitched without a contract
    smudge: bool = False

    @property
    def label(self) -> int | str:
        """The amount as the record writes it: a number, or "smudge"."""
        return "smudge" if self.smudge else self.amount


class Play(NamedTuple):
    player: str | None  # None: not named ("AS"), the player follows from the seating
    card: Card | None  # None: the player folded (trump-only play)


class Trick(NamedTuple):
    leader: str
    plays: tuple[Play, ...]


class Hand(NamedTuple):
    """One hand as recorded. Immutable: a change is a new record (`_replace`)."""

    dealer: str
    trump: Suit
    bid: Bid
    auction: tuple[tuple[str, int | str], ...] = ()  # (player, "pass" | amount | "smudge" | "pitch" | "sell")
    captured: tuple[tuple[str, tuple[Card, ...]], ...] | None = None
    points: tuple[tuple[str, str], ...] | None = None
    tricks: tuple[Trick, ...] | None = None
    dealt: tuple[tuple[str, tuple[Card, ...]], ...] = ()
    held: tuple[tuple[str, tuple[Card, ...]], ...] = ()
    revokes: tuple[str, ...] = ()
    note: str = ""
    kitty: tuple[Card, ...] | None = None  # the kitty as dealt (None: not given)
    discard: tuple[tuple[str, tuple[Card, ...]], ...] = ()  # player -> cards laid away or thrown in a draw
    drawn: tuple[tuple[str, tuple[Card, ...]], ...] = ()  # player -> cards received in a draw
    called: Card | None = None  # the card the bidder called (call your partner)
    partner: str | None = None  # who held the called card; "": no other player did; None: not given


# The keys of a hand that only a house rule's hand gives (a kitty, a draw, a called partner), by name: set
# to anything but their defaults, they send the hand through the engine's house-rule steps.
HOUSE_KEYS = ("kitty", "discard", "drawn", "called", "partner")


def teams_fit(n: int, size: int) -> bool:
    """Can `n` players sit in sides of `size` (players.team_sizes): each for himself (1), or two or more whole
    teams. The one test a table, a ruleset's table sizes and a seating are held to."""
    return size == 1 or (size > 1 and n % size == 0 and n // size >= 2)


def team_sizes_for(sizes: Iterable[int], n: int) -> list[int]:
    """The sizes of `sizes` (a ruleset's players.team_sizes, in its order) that `n` players can sit in."""
    return [s for s in sizes if teams_fit(n, s)]


@dataclass(frozen=True)
class Table:
    """Who sits where and who plays with whom: the sides that score. (No slots: the sides and the
    side of each player are worked out once, on first use, and kept on the record.)"""

    players: tuple[str, ...]
    teams: tuple[tuple[str, tuple[str, ...]], ...] | None  # None: each plays for himself

    @cached_property
    def sides(self) -> tuple[str, ...]:
        return tuple(t for t, _ in self.teams) if self.teams else self.players

    @cached_property
    def _side_map(self) -> dict[str, str]:
        if not self.teams:
            return {p: p for p in self.players}
        return {p: t for t, ms in self.teams for p in ms}

    @cached_property
    def nothing_taken(self) -> dict[str, int]:
        """Every side with no points: what a hand's count starts from (copied, never changed)."""
        return dict.fromkeys(self.sides, 0)

    @cached_property
    def key_player(self) -> dict[str, str]:
        """A key a hand may give -> itself when it is a player (a side's name is no player), looked up once."""
        return {p: p for p in self.players}

    @cached_property
    def key_seat(self) -> dict[str, tuple[str, str | None]]:
        """A key a hand may give (a side or a player) -> the side it scores for and the player it names (None
        for a side's name), looked up once per table."""
        return {k: (s, self.key_player.get(k)) for k, s in self.key_side.items()}

    @cached_property
    def key_side(self) -> dict[str, str]:
        """A key a hand may give (a side or a player) -> the side it scores for, looked up once per table."""
        return {**self._side_map, **{s: s for s in self.sides}}

    def left_of(self, player: str) -> str:
        """The next player clockwise: who deals after `player`, and the eldest hand when `player` deals."""
        return self.clockwise_from(player)[1 % len(self.players)]

    def clockwise_from(self, player: str) -> tuple[str, ...]:
        """Every player once, in seating order, starting with `player`."""
        i = self.players.index(player)
        return self.players[i:] + self.players[:i]

    def side_of(self, player: str) -> str:
        if self.teams is None:
            return player
        return self._side_map.get(player, player)

    def members(self, side: str) -> tuple[str, ...]:
        if self.teams:
            for t, m in self.teams:
                if t == side:
                    return m
        return (side,)

    def player(self, name: object, where: str) -> str:
        """A player named exactly, by any case, or by a unique prefix."""
        if isinstance(name, str):
            if name in self.players:
                return name
            low = name.lower()
            exact = [p for p in self.players if p.lower() == low]
            if len(exact) == 1:
                return exact[0]
            pre = [p for p in self.players if p.lower().startswith(low)] if low else []
            if len(pre) == 1:
                return pre[0]
        raise PitchError(f"{name!r} is not a player{did_you_mean(str(name), self.players)} "
                         f"(players: {', '.join(self.players)})", where)

    def owner(self, name: object, where: str) -> tuple[str, str | None]:
        """A side or a player -> (side, player or None)."""
        if isinstance(name, str):
            sides = self.sides
            if name in sides:
                return name, (name if not self.teams else None)
            if self.teams:
                low = name.lower()
                for s in sides:
                    if s.lower() == low:
                        return s, None
            try:
                p = self.player(name, where)
                return self.side_of(p), p
            except PitchError:
                pass
            if self.teams:
                pre = [s for s in sides if s.lower().startswith(name.lower())] if name else []
                if len(pre) == 1:
                    return pre[0], None
        choices = list(self.sides) + (list(self.players) if self.teams else [])
        kind = "team or player" if self.teams else "player"
        raise PitchError(f"{name!r} is not a {kind}{did_you_mean(str(name), choices)} "
                         f"({'teams' if self.teams else 'players'}: {', '.join(self.sides)})", where)

    def side_or_player(self, name: object, where: str) -> str:
        """A side's or a player's canonical name (captured cards may be keyed by either)."""
        side, player = self.owner(name, where)
        return player if player is not None else side

    def check_against(self, ruleset: Any) -> None:
        """The table fits the ruleset: player count, individual or team play, team sizes."""
        ps = ruleset.settings["players"]
        n = len(self.players)
        if n not in ps["counts"]:
            raise PitchError(f"{ruleset.name} is played by {or_list(ps['counts'])} players, not {n}", "players")
        if self.teams is None:
            if 1 not in ps["team_sizes"]:
                sizes = or_list([s for s in ps["team_sizes"] if s > 1])
                raise PitchError(f"{ruleset.name} is a partnership game: add teams = {{ ... }} "
                                 f"with teams of {sizes}", "teams")
        else:
            given = {len(m) for _, m in self.teams}
            allowed = [s for s in ps["team_sizes"] if s > 1]
            if not allowed:
                raise PitchError(f"{ruleset.name} is played each for himself: remove teams", "teams")
            if len(given) != 1 or given.pop() not in allowed:
                raise PitchError(f"{ruleset.name} plays in teams of {or_list(allowed)}; "
                                 f"these teams have {', '.join(str(len(m)) for _, m in self.teams)} players",
                                 "teams")


def _check_keys(data: Mapping[str, Any], valid: tuple[str, ...], where: str) -> None:
    for k in data:
        if k not in valid:
            raise unknown_key(k, valid, f"{where}{k}" if where else k)


def _text(v: Any, where: str) -> str:
    if not isinstance(v, str) or not v.strip():
        raise PitchError(f"expected a name, got {v!r}", where)
    _printable(v, where)
    return v.strip()


def _printable(v: str, where: str) -> None:
    """No control characters: a name or note is printed to terminals, and must not drive them."""
    control_free(v, where)


NAME_SEPARATORS = (":", ",")  # the auction is written "Bob:pass Cy:2", and names are listed between commas


def new_name(name: object, where: str) -> None:
    """A player's name for a match being started: none may hold a character the auction's calls or a list
    of names are written with, or no auction naming that player could ever be recorded. (A log that
    already holds such a name still loads: only new matches are refused.)"""
    if isinstance(name, str):
        held = [c for c in NAME_SEPARATORS if c in name]
        if held:
            raise PitchError(f"{name!r} holds {' and '.join(repr(c) for c in held)}: a name may not hold ':' or ',' "
                             "(the auction is written Name:call, and names are listed between commas)", where)


def parse_table(data: Mapping[str, Any]) -> Table:
    """`players` and `teams` of a record: who sits where and who plays with whom."""
    players_raw = data.get("players")
    if players_raw is None:
        raise PitchError("missing: list the players in seating order, players = [\"Ann\", \"Bob\", ...]", "players")
    if not isinstance(players_raw, list) or not players_raw:
        raise PitchError("expected a list of names in seating order", "players")
    players = tuple(_text(p, f"players[{i + 1}]") for i, p in enumerate(players_raw))
    dup = [p for p in players if players.count(p) > 1]
    if dup:
        raise PitchError(f"{dup[0]!r} sits at the table twice", "players")
    teams_raw = data.get("teams")
    teams = None
    if teams_raw is not None:
        if not isinstance(teams_raw, Mapping) or not teams_raw:
            raise PitchError("expected a table: team name -> list of its players", "teams")
        seen: dict[str, str] = {}
        out = []
        for name, members in teams_raw.items():
            _text(name, f"teams.{name}")
            if not isinstance(members, list) or not members:
                raise PitchError("expected a list of players", f"teams.{name}")
            ms = []
            for m in members:
                if not isinstance(m, str) or m not in players:
                    raise PitchError(f"{m!r} is not a player{did_you_mean(str(m), players)}", f"teams.{name}")
                if m in seen:
                    raise PitchError(f"{m} is in two teams ({seen[m]} and {name})", f"teams.{name}")
                seen[m] = name
                ms.append(m)
            if name in players and name not in ms:
                raise PitchError(f"a team may not be named after a player of another team ({name})", f"teams.{name}")
            out.append((name, tuple(ms)))
        left = [p for p in players if p not in seen]
        if left:
            raise PitchError(f"{', '.join(left)} in no team", "teams")
        teams = tuple(out)
    return Table(players, teams)


def _whole(digits: str, where: str) -> int:
    """Typed digits as a number; more digits than any bid has is bad input (and Python refuses thousands)."""
    if len(digits.strip()) > 18:
        raise PitchError(f"a number of {len(digits.strip())} digits is no bid", where)
    return int(digits)


def parse_bid(v: Any, table: Table, where: str, smudge_names: tuple[str, ...] = ("smudge",)) -> Bid:
    """`bid = { player, amount }`; the amount's worth is the ruleset's to judge (scoring.amount_worth)."""
    if not isinstance(v, Mapping):
        raise PitchError("expected { player = \"Ann\", amount = 3 }", where)
    _check_keys(v, ("player", "amount"), where + ".")
    if "player" not in v:
        raise PitchError("missing: who won the bid, player = \"...\"", f"{where}.player")
    if "amount" not in v:
        raise PitchError("missing: how much was bid, amount = 3 (or \"smudge\")", f"{where}.amount")
    player = table.player(v["player"], f"{where}.player")
    amount = v["amount"]
    if isinstance(amount, bool) or not isinstance(amount, int | str):
        raise PitchError(f"expected a whole number or \"smudge\", got {amount!r}", f"{where}.amount")
    if isinstance(amount, str):
        if amount.strip().isascii() and amount.strip().isdigit():
            return Bid(player, _whole(amount, f"{where}.amount"))
        if amount.lower() in smudge_names or amount.lower() in SMUDGE_WORDS:
            return Bid(player, -1, True)  # the ruleset gives its worth
        raise PitchError(f"{amount!r} is not a bid (a whole number, or \"smudge\")", f"{where}.amount")
    return Bid(player, amount)


def parse_call(text: Any, table: Table, where: str) -> tuple[str, int | str]:
    """One auction call, "Bob:pass", "Cy:2", "Dee:smudge", "Ann:pitch" or "Ann:sell" (eldest's sale in a
    sell-out auction), as (player, call)."""
    if not isinstance(text, str) or ":" not in text:
        raise PitchError(f"expected \"Player:pass\", \"Player:3\" or \"Player:smudge\", got {text!r}", where)
    who, _, call = text.partition(":")
    player = table.player(who.strip(), where)
    call = call.strip().lower()
    if call.isascii() and call.isdigit():
        return player, _whole(call, where)
    if call in ("pass", "p", "-"):
        return player, "pass"
    if call in SMUDGE_WORDS:
        return player, "smudge"
    if call in ("pitch",):
        return player, "pitch"
    if call in ("sell", "sells", "sold"):
        return player, "sell"
    raise PitchError(f"'{call}' is not a call (pass, a number, smudge, pitch, or sell for eldest's sale)", where)


T = TypeVar("T")


def _at(where: str, parse: Callable[[Any], T], value: Any) -> T:
    """`parse(value)`, a refusal named at the key `where` it was read from."""
    try:
        return parse(value)
    except PitchError as e:
        raise e.at(where) from None


def _card_table(v: Any, where: str, key_fn: Any) -> tuple[tuple[str, tuple[Card, ...]], ...]:
    if not isinstance(v, Mapping):
        raise PitchError("expected a table: name -> list of cards", where)
    out: dict[str, list[Card]] = {}
    for name, cards in v.items():
        key = key_fn(name, f"{where}.{name}")
        out.setdefault(key, []).extend(_at(f"{where}.{name}", parse_cards, cards))
    return tuple((k, tuple(cs)) for k, cs in out.items())


def parse_tricks(v: Any, table: Table, where: str) -> tuple[Trick, ...]:
    if not isinstance(v, list) or not v:
        raise PitchError("expected a list of { leader = \"Ann\", cards = [...] }", where)
    out = []
    for i, t in enumerate(v, 1):
        w = f"{where}[{i}]"
        if not isinstance(t, Mapping):
            raise PitchError("expected { leader = \"Ann\", cards = [\"AS\", ...] }", w)
        _check_keys(t, ("leader", "cards"), w + ".")
        if "leader" not in t or "cards" not in t:
            raise PitchError("needs leader and cards", w)
        leader = table.player(t["leader"], f"{w}.leader")
        cards = t["cards"]
        if not isinstance(cards, list) or not cards:
            raise PitchError("expected a list of cards in playing order from the leader", f"{w}.cards")
        plays = []
        for j, c in enumerate(cards, 1):
            cw = f"{w}.cards[{j}]"
            if not isinstance(c, str):
                raise PitchError(f"expected a card, got {c!r}", cw)
            if ":" in c:
                who, _, card = c.partition(":")
                player = table.player(who.strip(), cw)
                card = card.strip()
                if card.lower() in ("", "fold", "folded", "-"):
                    plays.append(Play(player, None))
                    continue
                try:
                    plays.append(Play(player, parse_card(card)))
                except PitchError as e:
                    raise e.at(cw) from None
            else:
                try:
                    plays.append(Play(None, parse_card(c)))
                except PitchError as e:
                    raise e.at(cw) from None
        out.append(Trick(leader, tuple(plays)))
    return tuple(out)


def parse_hand(data: Mapping[str, Any], table: Table, where: str = "", extra_keys: tuple[str, ...] = ()) -> Hand:
    """The per-hand keys of a record; `where` prefixes every key in messages (e.g. 'hands[3].')."""
    _check_keys(data, HAND_KEYS + EXTRA_HAND_KEYS + extra_keys, where)
    for k in ("dealer", "trump", "bid"):
        if k not in data:
            raise PitchError(f"missing: every hand needs {k}", f"{where}{k}")
    dealer = table.player(data["dealer"], f"{where}dealer")
    trump = _at(f"{where}trump", parse_suit, data["trump"])
    bid = parse_bid(data["bid"], table, f"{where}bid")
    given = [k for k in ("captured", "points", "tricks") if k in data]
    if not given:
        raise PitchError("say what each side took: captured (cards), points (who won each point) or tricks",
                         where.rstrip(".") or "hand")
    if len(given) > 1:
        raise PitchError(f"give one of captured, points or tricks, not {' and '.join(given)}",
                         where.rstrip(".") or "hand")
    auction: tuple[tuple[str, int | str], ...] = ()
    if "auction" in data:
        a = data["auction"]
        if isinstance(a, str):
            a = a.split()
        if not isinstance(a, list):
            raise PitchError("expected a list of calls such as [\"Bob:pass\", \"Cy:2\"]", f"{where}auction")
        auction = tuple(parse_call(c, table, f"{where}auction[{i}]") for i, c in enumerate(a, 1))
    captured = points = tricks = None
    if "captured" in data:
        captured = _card_table(data["captured"], f"{where}captured", table.side_or_player)
    if "points" in data:
        p = data["points"]
        if not isinstance(p, Mapping) or not p:
            raise PitchError("expected a table: point -> who won it, e.g. { high = \"Us\", low = \"Them\" }",
                             f"{where}points")
        out = []
        for pid, who in p.items():
            w = f"{where}points.{pid}"
            side, player = table.owner(who, w)
            out.append((pid, player or side))
        points = tuple(out)
    if "tricks" in data:
        tricks = parse_tricks(data["tricks"], table, f"{where}tricks")
    dealt = _card_table(data.get("dealt", {}), f"{where}dealt", table.player) if "dealt" in data else ()
    held = _card_table(data.get("held", {}), f"{where}held", table.player) if "held" in data else ()
    revokes: tuple[str, ...] = ()
    if "revokes" in data:
        r = data["revokes"]
        if not isinstance(r, list):
            raise PitchError("expected a list of players", f"{where}revokes")
        revokes = tuple(table.player(x, f"{where}revokes") for x in r)
    note = data.get("note", "")
    if not isinstance(note, str):
        raise PitchError("expected text", f"{where}note")
    _printable(note.replace("\n", " ").replace("\t", " "), f"{where}note")
    hand = Hand(dealer, trump, bid, auction, captured, points, tricks, dealt, held, revokes, note)
    if any(k in data for k in ("kitty", "discard", "drawn", "called", "partner")):
        hand = _house_keys(data, table, hand, where)
    return hand


def _house_keys(data: Mapping[str, Any], table: Table, hand: Hand, where: str) -> Hand:
    """The keys of a kitty, a draw and a called partner, checked for shape; game.deal and game.partners
    check them against the ruleset and the rest of the hand."""
    kitty = _at(f"{where}kitty", parse_cards, data["kitty"]) if "kitty" in data else None
    discard: tuple[tuple[str, tuple[Card, ...]], ...] = ()
    if "discard" in data:
        d = data["discard"]
        if isinstance(d, Mapping):
            discard = _card_table(d, f"{where}discard", table.player)
        else:  # a bare list is the bidder's lay-away
            try:
                discard = ((hand.bid.player, parse_cards(d)),)
            except PitchError as e:
                raise PitchError(f"{e.message} (a list of cards, the bidder's; or a table: player -> cards)",
                                 f"{where}discard") from None
    drawn: tuple[tuple[str, tuple[Card, ...]], ...] = ()
    if "drawn" in data:
        drawn = _card_table(data["drawn"], f"{where}drawn", table.player)
    called = _at(f"{where}called", parse_card, data["called"]) if "called" in data else None
    partner = None
    if "partner" in data:
        p = data["partner"]
        nobody = isinstance(p, str) and p.strip().lower() in PARTNER_NOBODY
        partner = "" if nobody else table.player(p, f"{where}partner")
    return hand._replace(kitty=kitty, discard=discard, drawn=drawn, called=called, partner=partner)


def parse_hand_record(data: Mapping[str, Any]) -> tuple[Table, Hand]:
    """A whole hand record (spec section 3): table and hand. `rules` is read by the caller."""
    _check_keys(data, HAND_RECORD_KEYS, "")
    table = parse_table(data)
    return table, parse_hand(data, table, extra_keys=HEADER_KEYS)
