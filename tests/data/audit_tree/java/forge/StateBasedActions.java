package forge.game;

/** Forge style: rule comments with a dash, and rule numbers baked into method names. */
public final class StateBasedActions {
    // Rule 704.5f - a creature with toughness 0 or less is put into its owner's graveyard
    void stateBasedAction704_5f(Card c) {}

    // Rule 704.5m - the world rule: all but the newest world permanent go to the graveyard
    void checkWorldRule() {}

    // rules 704.5k-m: the world rule, then Auras attached to an illegal object
    void checkPermanents() {}

    // XMage style: rule text pasted with its number.
    static final String HAUNT = "702.53a Haunt is a triggered ability. “Haunt” on a permanent means “When this permanent is put into a graveyard from the battlefield, exile it haunting target creature.”";

    static final String MV = "202.3 The converted mana cost of an object is a number equal to the total amount of mana in its mana cost, regardless of color.";

    static final String TARGETS = "601.2c The player announces their choice of an appropriate object or player for each target the spell requires.";

    // CR 104.2b, e.g. an alternate win condition
    void altWin() {}

    double ratio = 702.5; // not a citation
}
