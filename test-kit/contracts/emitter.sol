// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

/// Emits the events the contract-event sync tests read: transfers (one, or many in one
/// transaction) and a note with the other value types.
contract Emitter {
    event Transfer(address indexed from, address indexed to, uint256 value);
    event Note(uint256 indexed id, string text, bool flag, int64 delta);

    function mint(address to, uint256 value) external {
        emit Transfer(address(0), to, value);
    }

    function mintMany(address to, uint256 count, uint256 base) external {
        for (uint256 i = 0; i < count; i++) emit Transfer(address(0), to, base + i);
    }

    function note(uint256 id, string calldata text, bool flag, int64 delta) external {
        emit Note(id, text, flag, delta);
    }
}
