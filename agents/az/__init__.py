"""Network-guided search for Airships: the policy-value network, PUCT search, the az agent and expert iteration."""
