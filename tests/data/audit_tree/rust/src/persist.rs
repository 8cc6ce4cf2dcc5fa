//! Keyword abilities in the style of phase.rs: "// CR <number>: <what it does>".

/// CR 702.78a: persist returns the creature with a -1/-1 counter if it had none.
pub fn persist_trigger(obj: &Object) -> bool {
    obj.counters(CounterType::MinusOne) == 0
}

// CR 702.19b: trample assigns lethal damage to blockers, the rest to the player.
pub fn assign_trample(attacker: &Object) {}

// CR 702.19b: flying creature can't be blocked except by creatures with flying or reach.
pub fn can_block_flyer(blocker: &Object) -> bool { true }

// CR 120.3 + CR 119.3a: damage dealt to a player causes that player to lose that much life.
pub fn deal_damage(player: &mut Player, amount: u32) {}

// CR 701.22a / CR 701.25a: scry and surveil both look at the top cards of your library.
pub fn look_at_top(n: usize) {}

// CR 733.4: commander tax for partner commanders
pub fn partner_tax() {}

// Not citations: version 1.20.3, x = 100.5, and "see section 7".
const RATE: f64 = 100.5;
