// C#: copies of spells.
namespace Engine {
    /// <summary>CR 707.10: a copy of a spell isn't cast; it copies modes, targets and the value of X.</summary>
    public class SpellCopy {
        // CR 706.10: copying a spell copies its choices, and the copy is not cast
        public void Copy() {}
    }
}
