// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

// A factory whose children emit Transfer events: contract-event syncs follow a factory's
// ChildCreated events to read their children's logs.
contract Child {
    event Transfer(address indexed from, address indexed to, uint256 value);

    function mint(address to, uint256 value) external {
        emit Transfer(address(0), to, value);
    }
}

contract Factory {
    event ChildCreated(address indexed child, uint256 serial);

    uint256 private made;

    function create() external returns (address child) {
        child = address(new Child());
        emit ChildCreated(child, ++made);
    }
}
